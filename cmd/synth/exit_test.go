package main

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/llm/llmtest"
	"synth/pyenv/pyenvtest"
)

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	typo := filepath.Join(dir, "typo.yaml")
	os.WriteFile(typo, []byte("teachr: {}\n"), 0o644)
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"ok", []string{"version"}, exitOK},
		{"unknown command", []string{"bogus"}, exitUsage},
		{"unknown flag", []string{"build", "--nope"}, exitUsage},
		{"too many args", []string{"init", "a", "b"}, exitUsage},
		{"config typo", []string{"build", "-o", filepath.Join(dir, "out"), "--config", typo}, exitUsage},
		{"missing config", []string{"build", "-o", filepath.Join(dir, "out"), "--config", filepath.Join(dir, "none.yaml")}, exitUsage},
		{"build into a file", []string{"build", "-o", typo}, exitError},
		{"dead endpoint", []string{"build", "-o", filepath.Join(dir, "dead"), "--teacher", "openai", "--model", "m", "--base-url", llmtest.DeadURL(t)}, exitError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := run(tc.args); got != tc.want {
				t.Errorf("synth %v exited %d, want %d", tc.args, got, tc.want)
			}
		})
	}
}

// synthStatus runs synth as main does and returns what it printed (stdout
// then stderr) and the status it exits with.
func synthStatus(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := runIO(args, &stdout, &stderr)
	return stdout.String() + stderr.String(), code
}

// TestExitCodeEmptyResults: a build that wrote no dataset row and an eval
// that scored no task did not produce what was asked, so they exit 1 and
// say why.
func TestExitCodeEmptyResults(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	out, code := synthStatus(t, "build", "-o", filepath.Join(dir, "run"), "--teacher", "empty", "--templates", "table.sort")
	if code != exitError || !strings.Contains(out, "the dataset has no rows") || !strings.Contains(out, "failed rollouts") {
		t.Errorf("build with the empty teacher: exit %d, want %d with an error saying the dataset has no rows\n%s", code, exitError, out)
	}

	srv := llmtest.NewServer(t, llmtest.Status(http.StatusInternalServerError, 0))
	cfg := filepath.Join(dir, "synth.yaml")
	os.WriteFile(cfg, []byte("llm:\n  max_retries: -1\n"), 0o644)
	res := filepath.Join(dir, "res")
	out, code = synthStatus(t, "eval", "--bench", evalFixture, "--model", "m", "--base-url", srv.URL, "--api-key-env", "SYNTH_TEST_NO_KEY",
		"--config", cfg, "--infra-retries", "-1", "-o", res, "--tasks", "1,4")
	if code != exitError || !strings.Contains(out, "no task of 2 could be scored") {
		t.Errorf("eval against a failing server: exit %d, want %d with an error saying no task could be scored\n%s", code, exitError, out)
	}
	out, code = synthStatus(t, "eval", "compare", res)
	if code != exitOK || !strings.Contains(out, "2 of 2 tasks unscored") {
		t.Errorf("compare does not mark the unscored run: exit %d\n%s", code, out)
	}
}

// TestBuildAgainUpToDate: a second synth build of the same run has nothing
// to do, says so, and exits 0.
func TestBuildAgainUpToDate(t *testing.T) {
	pyenvtest.Python(t)
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"build", "-o", out, "--templates", "table.sort"}
	if got, code := synthStatus(t, args...); code != exitOK || strings.Contains(got, "up to date") || !strings.Contains(got, "done in") {
		t.Fatalf("first build: exit %d, want %d and a build that ran\n%s", code, exitOK, got)
	}
	got, code := synthStatus(t, args...)
	if code != exitOK {
		t.Errorf("second build: exit %d, want %d\n%s", code, exitOK, got)
	}
	if want := out + " is up to date: nothing to do.\n"; !strings.HasPrefix(got, want) {
		t.Errorf("second build does not start with %q:\n%s", want, got)
	}
	if strings.Contains(got, "done in") {
		t.Errorf("second build reports work done:\n%s", got)
	}
}

// TestFlagVocabulary: build and eval share one flag vocabulary; the old
// names still parse but are not taught.
func TestFlagVocabulary(t *testing.T) {
	for _, cmd := range []string{"build", "eval"} {
		out, err := runSynth(t, "", cmd, "--help")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"--api-key-env", "--max-cost-usd", "--base-url", "--model", "--temperature", "OPENAI_BASE_URL"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s --help does not teach %s", cmd, want)
			}
		}
		for _, old := range []string{"--key-env ", "--max-cost "} {
			if strings.Contains(out, old) {
				t.Errorf("%s --help teaches the old name %s", cmd, old)
			}
		}
	}
	for _, args := range [][]string{{"build", "--key-env", "K", "--help"}, {"eval", "--max-cost", "1", "--help"}} {
		if got := run(args); got != exitOK {
			t.Errorf("synth %v exited %d: the old name no longer parses", args, got)
		}
	}
}

// TestEvalExitsOnInfraAboveThreshold: an eval that lost more than
// --max-infra-rate of its rollouts to the infrastructure exits 1 and gives
// the pass rate over all tasks; a higher threshold accepts it.
func TestEvalExitsOnInfraAboveThreshold(t *testing.T) {
	srv := llmtest.NewServer(t, func(c llmtest.Call) llmtest.Reply {
		if strings.Contains(c.Query(), "How many rows") {
			// The answer states what the code printed (docs/CHECKS.md,
			// "Answers the output supports").
			if c.Turn() == 0 {
				return llmtest.Reply{Content: "Action:\n```python\nimport pandas as pd\nprint(len(pd.read_csv('./data/' + __import__('os').listdir('./data')[0])))\n```"}
			}
			return llmtest.Reply{Content: "Finished: The table has 5 rows."}
		}
		return llmtest.Reply{Status: http.StatusServiceUnavailable}
	})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "synth.yaml")
	os.WriteFile(cfg, []byte("llm:\n  max_retries: -1\n"), 0o644)
	res := filepath.Join(dir, "res")
	args := []string{"eval", "--bench", evalFixture, "--model", "m", "--base-url", srv.URL, "--api-key-env", "SYNTH_TEST_NO_KEY",
		"--config", cfg, "--infra-retries", "-1", "-o", res, "--tasks", "1,4"}
	out, err := runSynth(t, "", args...)
	if err == nil || !strings.Contains(err.Error(), "1 of 2 rollouts (50.0%) failed for infrastructure reasons") ||
		!strings.Contains(err.Error(), "pass rate over all 2 tasks is 50.0%") {
		t.Errorf("eval losing half its rollouts: %v, want an error with both rates\n%s", err, out)
	}
	if !strings.Contains(out, "pass rate over all 2 tasks 50.0%") {
		t.Errorf("eval does not print the pass rate over all tasks:\n%s", out)
	}
	if out, err := runSynth(t, "", append(args, "--max-infra-rate", "0.5")...); err != nil {
		t.Errorf("--max-infra-rate 0.5 with half lost: %v, want success\n%s", err, out)
	}
	if code := run(append(args, "--max-infra-rate", "2")); code != exitUsage {
		t.Errorf("--max-infra-rate 2 exited %d, want %d", code, exitUsage)
	}
}
