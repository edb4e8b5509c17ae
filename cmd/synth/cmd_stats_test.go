package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// execute runs synth with args and returns its stdout and error.
func execute(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func writeStatsInput(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rows.jsonl")
	rows := `{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}, {"role": "assistant", "content": "Finished: b"}], "category": "data_analysis", "passed": true}
{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}, {"role": "assistant", "content": "b"}, {"role": "assistant", "content": "c"}, {"role": "assistant", "content": "Finished: d"}], "category": "complex_math", "passed": false}
`
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestStatsJSON(t *testing.T) {
	out, err := execute(t, "stats", writeStatsInput(t), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Stats struct {
			Trajectories int64                       `json:"trajectories"`
			Turns        map[string]int64            `json:"turns"`
			PassRate     float64                     `json:"pass_rate"`
			Categories   []struct{ Category string } `json:"categories"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	s := rep.Stats
	if s.Trajectories != 2 || s.Turns["<=3"] != 1 || s.Turns["4-6"] != 1 || s.PassRate != 0.5 || len(s.Categories) != 2 {
		t.Errorf("stats %+v", s)
	}
}

func TestStatsTextAndHTML(t *testing.T) {
	html := filepath.Join(t.TempDir(), "report.html")
	out, err := execute(t, "stats", writeStatsInput(t), "--html", html)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"data_analysis", "complex_math", "total", "50.0%", "HTML report: " + html} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The turn profile next to PyInstruct's: one row of 2 turns, one of 4.
	if !regexp.MustCompile(`(?m)^\s*\S+\s+50%\s+50%\s+0%\s+0%\s*$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^\s*PyInstruct\s+40%\s+53%\s+5%\s+2%\s*$`).MatchString(out) {
		t.Errorf("no turn profile beside PyInstruct's:\n%s", out)
	}
	page, err := os.ReadFile(html)
	if err != nil || !bytes.Contains(page, []byte("<svg")) {
		t.Errorf("HTML report: %v, %d bytes", err, len(page))
	}
}

func TestStatsCompare(t *testing.T) {
	a, b := writeStatsInput(t), writeStatsInput(t)
	html := filepath.Join(t.TempDir(), "cmp.html")
	out, err := execute(t, "stats", a, b, "--html", html)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.TrimSpace(out), "dataset") || strings.Count(out, "rows.jsonl") < 4 {
		t.Errorf("comparison output:\n%s", out)
	}
	page, _ := os.ReadFile(html)
	if !bytes.Contains(page, []byte("<h2>Comparison</h2>")) {
		t.Error("HTML report lacks the comparison")
	}
	out, err = execute(t, "stats", a, b, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var reps []map[string]any
	if err := json.Unmarshal([]byte(out), &reps); err != nil || len(reps) != 2 {
		t.Errorf("--json with two PATHs: %v, %d reports", err, len(reps))
	}
}

func TestStatsUsage(t *testing.T) {
	for _, args := range [][]string{{"stats"}, {"stats", "x.jsonl", "--tokens", "bogus"}} {
		_, err := execute(t, args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: error %v, want a usage error", args, err)
		}
	}
	if _, err := execute(t, "stats", filepath.Join(t.TempDir(), "missing.parquet")); err == nil || !strings.Contains(err.Error(), "missing.parquet") {
		t.Errorf("a missing file: %v", err)
	}
}

func TestStatsHelpTeaches(t *testing.T) {
	out, err := execute(t, "stats", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Examples:", "synth stats out/dataset", "--html", "--json", "conversations"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}
