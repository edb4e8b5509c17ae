package testenv

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// helperEnv makes TestHelperMissing call Missing; the other tests run this
// binary again with it set.
const helperEnv = "TESTENV_HELPER"

func TestHelperMissing(t *testing.T) {
	switch os.Getenv(helperEnv) {
	case "missing":
		Missing(t, "needs the frobnicator: apt-get install frob")
	case "lookpath":
		LookPath(t, "synth-no-such-program", "apt-get install frob")
	}
}

// child runs TestHelperMissing in a new process with mode and CI=ci, and
// returns its output and exit code.
func child(t *testing.T, mode, ci string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMissing$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, "CI="+ci)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	}
	t.Fatalf("running the helper: %v", err)
	return "", 0
}

func TestMissing(t *testing.T) {
	for _, tc := range []struct {
		mode, ci, verdict, says string
		code                    int
	}{
		{"missing", "true", "--- FAIL: TestHelperMissing", "needs the frobnicator: apt-get install frob", 1},
		{"missing", "", "--- SKIP: TestHelperMissing", "needs the frobnicator: apt-get install frob", 0},
		{"missing", "false", "--- SKIP: TestHelperMissing", "needs the frobnicator", 0},
		{"lookpath", "true", "--- FAIL: TestHelperMissing", "needs synth-no-such-program, not found on PATH: apt-get install frob", 1},
		{"lookpath", "", "--- SKIP: TestHelperMissing", "synth-no-such-program", 0},
	} {
		t.Run(tc.mode+"/CI="+tc.ci, func(t *testing.T) {
			out, code := child(t, tc.mode, tc.ci)
			if code != tc.code {
				t.Errorf("exit code %d, want %d:\n%s", code, tc.code, out)
			}
			if !strings.Contains(out, tc.verdict) || !strings.Contains(out, tc.says) {
				t.Errorf("output lacks %q and %q:\n%s", tc.verdict, tc.says, out)
			}
		})
	}
}

func TestLookPathFound(t *testing.T) {
	if p := LookPath(t, "sh", "apt-get install dash"); p == "" {
		t.Error("LookPath(sh) is empty")
	}
}
