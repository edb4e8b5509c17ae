package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"synth/internal/testenv"
)

// headless finds Chromium, or skips the test saying what to install.
func headless(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Missing(t, "chromium not found: install Debian's chromium (make test does) to open synth view's pages")
	return ""
}

// dumpDOM opens file path#hash in headless Chromium and returns the
// document once its scripts ran.
func dumpDOM(t *testing.T, browser, path, hash string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	u := "file://" + filepath.ToSlash(path)
	if hash != "" {
		u += "#" + hash
	}
	out, err := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=8000", "--dump-dom", u).Output()
	if err != nil {
		t.Fatalf("chromium %s: %v", u, err)
	}
	return string(out)
}

var trajLink = regexp.MustCompile(`href="trajectory\.html#(\d+)"`)

// TestViewDemoRun builds a run of the demo corpus (two templates, to stay
// quick), writes its site and reads the index and a page in Chromium.
func TestViewDemoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a run in the sandbox")
	}
	browser := headless(t)
	dir := t.TempDir()
	run, site := filepath.Join(dir, "run"), filepath.Join(dir, "site")
	if out, err := runSynth(t, "", "build", "-o", run, "--templates", "table.dropna,chart.box"); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := runSynth(t, "", "view", run, "-o", site)
	if err != nil || !strings.Contains(out, "pages written") {
		t.Fatalf("view: %v\n%s", err, out)
	}
	// The run's dataset: a page per row, each its trajectory's in the run.
	dsite := filepath.Join(dir, "dsite")
	if out, err := runSynth(t, "", "view", filepath.Join(run, "dataset"), "-o", dsite); err != nil || !strings.Contains(out, "pages written") {
		t.Fatalf("view the dataset: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(dsite, "data", "t", "000", "0.js")); err != nil || !strings.Contains(string(b), `"kind":"dataset"`) ||
		!strings.Contains(string(b), `"files":[{"name":`) || !strings.Contains(string(b), `"verdict":{"passed":true`) {
		t.Errorf("dataset page 0: %v\n%.2000s", err, b)
	}

	index := dumpDOM(t, browser, filepath.Join(site, "index.html"), "")
	links := map[string]bool{}
	for _, m := range trajLink.FindAllStringSubmatch(index, -1) {
		links[m[1]] = true
	}
	if len(links) == 0 || !strings.Contains(index, "template:chart.box@1") || !strings.Contains(index, "decontaminate") && !strings.Contains(index, "rollout") {
		t.Fatalf("index: %d links:\n%s", len(links), index)
	}
	pages, _ := filepath.Glob(filepath.Join(site, "data", "t", "000", "*.js"))
	if len(links) != min(len(pages), 100) {
		t.Errorf("the index links %d trajectories of %d", len(links), len(pages))
	}
	// A chart rollout's page shows its query, code, verdict and the chart.
	for i := range pages {
		b, _ := os.ReadFile(filepath.Join(site, "data", "t", "000", strconv.Itoa(i)+".js"))
		if !strings.Contains(string(b), `"show":"image"`) {
			continue
		}
		page := dumpDOM(t, browser, filepath.Join(site, "trajectory.html"), strconv.Itoa(i))
		for _, want := range []string{"box", `class="hl-k">import</span>`, "Verdict", "<img ", ".png", "Input files", "<th>"} {
			if !strings.Contains(page, want) {
				t.Errorf("page %d lacks %s", i, want)
			}
		}
		return
	}
	t.Error("no page of the run shows an image")
}

// TestViewEvalsSideBySide views two evals of one benchmark on a page per
// task.
func TestViewEvalsSideBySide(t *testing.T) {
	dir := t.TempDir()
	ref, empty, site := filepath.Join(dir, "ref"), filepath.Join(dir, "empty"), filepath.Join(dir, "site")
	for _, ev := range [][2]string{{"reference", ref}, {"empty", empty}} {
		if out, err := runSynth(t, "", "eval", "--bench", evalFixture, "--teacher", ev[0], "-o", ev[1], "--max-turns", "3"); err != nil {
			t.Fatalf("eval %s: %v\n%s", ev[0], err, out)
		}
	}
	out, err := runSynth(t, "", "view", ref, empty, "-o", site)
	if err != nil || !strings.Contains(out, "4 pages written") {
		t.Fatalf("view: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(site, "data", "t", "000", "0.js"))
	if err != nil || !strings.Contains(string(b), `"label":"ref"`) || !strings.Contains(string(b), `"label":"empty"`) {
		t.Fatalf("page 0: %v\n%s", err, b)
	}
	browser := headless(t)
	page := dumpDOM(t, browser, filepath.Join(site, "trajectory.html"), "0")
	if !strings.Contains(page, `class="sides two"`) || !strings.Contains(page, `ref: <span class="badge ok">passed</span>`) ||
		!strings.Contains(page, `empty: <span class="badge bad">failed</span>`) {
		t.Errorf("side by side page:\n%s", page)
	}
}

func TestViewExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"view"}, exitUsage},
		{[]string{"view", dir}, exitUsage},
		{[]string{"view", "a", "b", "c", "-o", dir}, exitUsage},
		{[]string{"view", filepath.Join(dir, "missing"), "-o", filepath.Join(dir, "site")}, exitError},
		{[]string{"view", dir, "-o", filepath.Join(dir, "site")}, exitError},
	} {
		if code := run(tc.args); code != tc.code {
			t.Errorf("synth %v: exit %d, want %d", tc.args, code, tc.code)
		}
	}
}
