package checks

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestChecksDocNamesItsTests: every rule of docs/CHECKS.md's "How a
// verdict is made" names the test that holds it, and every test the page
// names exists.
func TestChecksDocNamesItsTests(t *testing.T) {
	doc, err := os.ReadFile("../docs/CHECKS.md")
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err = filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && p != ".." {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			tests[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile("`(Test\\w+)`")
	for _, m := range named.FindAllStringSubmatch(string(doc), -1) {
		if !tests[m[1]] {
			t.Errorf("docs/CHECKS.md names %s, which no test file declares", m[1])
		}
	}
	_, sec, ok := strings.Cut(string(doc), "## How a verdict is made\n")
	if !ok {
		t.Fatal(`docs/CHECKS.md has no "How a verdict is made"`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	rules := regexp.MustCompile(`(?m)^\d+\. `).Split(sec, -1)[1:]
	if len(rules) < 6 {
		t.Fatalf("%d rules in How a verdict is made", len(rules))
	}
	for i, r := range rules {
		if !named.MatchString(r) {
			t.Errorf("rule %d of How a verdict is made names no test", i+1)
		}
	}
}
