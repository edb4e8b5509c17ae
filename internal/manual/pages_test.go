package manual

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const root = "../.."

func readPage(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeIsTheFrontDoor: README.md fits on a page and leads to the
// manual's index.
func TestReadmeIsTheFrontDoor(t *testing.T) {
	readme := readPage(t, "README.md")
	if n := strings.Count(readme, "\n"); n > 300 {
		t.Errorf("README.md has %d lines, more than 300: move the detail into docs/", n)
	}
	for _, want := range []string{"](docs/README.md)", "make demo", "make test", "## Concepts"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
}

// TestIndexReachesEveryPage: docs/README.md links every page of docs/.
func TestIndexReachesEveryPage(t *testing.T) {
	index := readPage(t, "docs/README.md")
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if len(pages) < 10 {
		t.Fatalf("docs/ holds %d pages", len(pages))
	}
	for _, p := range pages {
		name := filepath.Base(p)
		if name != "README.md" && !strings.Contains(index, "]("+name+")") {
			t.Errorf("docs/README.md does not link %s", name)
		}
	}
}

var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestLinksResolve: every relative link of README.md and docs/*.md names a
// file that exists and, with #anchor, a heading of that page.
func TestLinksResolve(t *testing.T) {
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	pages = append(pages, filepath.Join(root, "README.md"))
	for _, p := range pages {
		b, _ := os.ReadFile(p)
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := p
			if file != "" {
				path = filepath.Join(filepath.Dir(p), file)
			}
			tb, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s: link %s: %v", rel(p), target, err)
				continue
			}
			if anchor != "" && !hasAnchor(string(tb), anchor) {
				t.Errorf("%s: link %s: %s has no heading with that anchor", rel(p), target, rel(path))
			}
		}
	}
}

func rel(p string) string { r, _ := filepath.Rel(root, p); return r }

// hasAnchor reports whether a Markdown page has a heading whose GitHub
// anchor is a.
func hasAnchor(page, a string) bool {
	for _, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, "#") && slug(strings.TrimLeft(l, "# ")) == a {
			return true
		}
	}
	return false
}

var notSlug = regexp.MustCompile(`[^\p{L}\p{N}\- _]`)

func slug(heading string) string {
	s := notSlug.ReplaceAllString(strings.ToLower(heading), "")
	return strings.ReplaceAll(s, " ", "-")
}
