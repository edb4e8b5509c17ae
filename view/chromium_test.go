package view

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"synth/internal/testenv"
)

// chromium finds a headless browser, or skips the test saying what to
// install.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Missing(t, "chromium not found: install Debian's chromium (make test does) to run the browser tests")
	return ""
}

// DumpDOM loads url in headless Chromium, lets its scripts run, and
// returns the document as it then stands.
func DumpDOM(t *testing.T, browser, u string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=8000", "--dump-dom", u)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %s: %v", u, err)
	}
	return string(out)
}

// fileURL is the file:// address of path with hash, which is put in as
// it is (already escaped).
func fileURL(path string, hash string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	if hash == "" {
		return u.String()
	}
	return u.String() + "#" + hash
}

var titleRe = regexp.MustCompile(`<title>([^<]*)</title>`)

func title(dom string) string {
	m := titleRe.FindStringSubmatch(dom)
	if m == nil {
		return ""
	}
	return m[1]
}

// assertRanNothing checks a dumped page for any sign that rollout content
// ran or became markup.
func assertRanNothing(t *testing.T, what, dom string) {
	t.Helper()
	if strings.Contains(title(dom), pwned) || strings.Contains(dom, "<title>"+pwned) {
		t.Errorf("%s: a rollout's script ran: title %q", what, title(dom))
	}
	for _, markup := range []string{`<script>document.title`, `<img src="x"`, `<svg onload`, `<u>`, `<iframe src="javascript:`, `allow-scripts`} {
		if strings.Contains(dom, markup) {
			t.Errorf("%s: rollout content became markup: %s", what, markup)
		}
	}
}

func TestChromiumHostileTrajectoryRunsNothing(t *testing.T) {
	browser := chromium(t)
	run := t.TempDir()
	writeRun(t, run, 0)
	site := build(t, false, run)

	index := DumpDOM(t, browser, fileURL(filepath.Join(site, "index.html"), ""))
	assertRanNothing(t, "index", index)
	if !strings.Contains(index, "evil query") || !strings.Contains(index, "&lt;script&gt;") || title(index) != "synth view: "+filepath.Base(run) {
		t.Errorf("index: the hostile query is not shown as text, or the title is %q:\n%s", title(index), index)
	}

	page := DumpDOM(t, browser, fileURL(filepath.Join(site, "trajectory.html"), "1"))
	assertRanNothing(t, "trajectory page", page)
	for _, want := range []string{
		"evil query",
		`sandbox=""`,                      // the HTML artifact's frame, nothing allowed
		`src="data:image/svg+xml;base64,`, // the SVG as an image
		"&lt;img src=x onerror=",          // the message text, as text
		"q\"&lt;u&gt;.csv",                // a file name with quotes and angle brackets
		"check_failed",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("trajectory page lacks %s", want)
		}
	}
	if strings.Contains(page, "<svg") {
		t.Error("the SVG artifact is inline markup, not an image")
	}

	good := DumpDOM(t, browser, fileURL(filepath.Join(site, "trajectory.html"), "0"))
	for _, want := range []string{"GOOD-ANSWER 2 rows", "CHECK-MESSAGE-OK", `class="hl-k">import</span>`, "<th>region</th>", "&lt;b&gt;20&lt;/b&gt;", "output/chart.png", "<img "} {
		if !strings.Contains(good, want) {
			t.Errorf("trajectory page 0 lacks %s", want)
		}
	}
}

var hrefRe = regexp.MustCompile(`href="trajectory\.html#(\d+)"`)

func TestChromiumEveryTrajectoryReachableFromTheIndex(t *testing.T) {
	browser := chromium(t)
	run := t.TempDir()
	n := writeRun(t, run, 230) // three index pages of 100
	site := build(t, false, run)
	seen := map[int]bool{}
	for pg := 1; pg <= 3; pg++ {
		dom := DumpDOM(t, browser, fileURL(filepath.Join(site, "index.html"), fmt.Sprintf("page=%d", pg)))
		for i := range linked(dom) {
			seen[i] = true
		}
	}
	var missing []int
	for i := range n {
		if !seen[i] {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 || len(seen) != n {
		sort.Ints(missing)
		t.Errorf("%d trajectories, %d linked from the index; not linked: %v", n, len(seen), missing)
	}

	// A filter keeps only what it names.
	failed := DumpDOM(t, browser, fileURL(filepath.Join(site, "index.html"), "verdict=1"))
	if links := linked(failed); len(links) != 1 || !links[1] || !strings.Contains(failed, "1 of 232 trajectories") {
		t.Errorf("verdict filter: links %v", links)
	}
	// So does the search.
	found := DumpDOM(t, browser, fileURL(filepath.Join(site, "index.html"), "q=EVIL%20query"))
	if links := linked(found); len(links) != 1 || !links[1] {
		t.Errorf("search: links %v", links)
	}
}

// linked is the set of trajectory pages a dumped index links to.
func linked(dom string) map[int]bool {
	seen := map[int]bool{}
	for _, m := range hrefRe.FindAllStringSubmatch(dom, -1) {
		i, _ := strconv.Atoi(m[1])
		seen[i] = true
	}
	return seen
}

// An index of several chunks, which arrive in any order, lists every row in
// order once all are in.
func TestChromiumIndexOfSeveralChunks(t *testing.T) {
	browser := chromium(t)
	run := t.TempDir()
	n := writeRun(t, run, firstChunkRows+200)
	site := build(t, false, run)
	last := (n + 99) / 100
	dom := DumpDOM(t, browser, fileURL(filepath.Join(site, "index.html"), fmt.Sprintf("page=%d", last)))
	links := linked(dom)
	if !strings.Contains(dom, fmt.Sprintf("%d of %d trajectories", n, n)) || len(links) != n-(last-1)*100 || !links[n-1] || !links[(last-1)*100] {
		t.Errorf("last page of %d: links %v", n, links)
	}
	found := DumpDOM(t, browser, fileURL(filepath.Join(site, "index.html"), "q=tr-extra-650"))
	if links := linked(found); len(links) != 1 || !links[652] {
		t.Errorf("search for a row of the second chunk: links %v", links)
	}
}
