package hostpy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/internal/testenv"
)

const python = "/usr/bin/python3"

// plantModules writes modules that, if imported, leave a marker file, into
// dir; it returns the marker's path.
func plantModules(t *testing.T, dir string) string {
	t.Helper()
	marker := filepath.Join(t.TempDir(), "ran")
	code := "open(" + stringLit(marker) + ", 'a').write(__name__ + '\\n')\n"
	for _, m := range []string{"json.py", "sitecustomize.py", "usercustomize.py", "importlib.py", "encodings.py", "startup.py"} {
		if err := os.WriteFile(filepath.Join(dir, m), []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return marker
}

func stringLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "\\'") + "'" }

// TestPlantedModulesNeverRun: modules in the working directory or named by
// PYTHONPATH / PYTHONSTARTUP are never imported by host Python.
func TestPlantedModulesNeverRun(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		testenv.Missing(t, "needs Debian's %s: apt-get install python3 (make deps)", python)
	}
	dir := t.TempDir()
	marker := plantModules(t, dir)
	t.Chdir(dir)
	t.Setenv("PYTHONPATH", dir)
	t.Setenv("PYTHONSTARTUP", filepath.Join(dir, "startup.py"))
	out, err := Command(t.Context(), python, "-c", "import json, os; print(json.__file__, os.getcwd())").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("a planted module ran on the host: %s", b)
	}
	if strings.Contains(string(out), dir) {
		t.Fatalf("host python used the working directory: %s", out)
	}
}

// TestEachGuard: each guard holds on its own (isolated mode, a clean
// environment, a neutral directory), so that none hides the loss of another.
func TestEachGuard(t *testing.T) {
	t.Setenv("PYTHONPATH", "/x")
	cmd := Command(t.Context(), python, "-c", "pass")
	if len(cmd.Args) < 2 || cmd.Args[1] != "-I" {
		t.Errorf("args %q: want -I first", cmd.Args)
	}
	if cmd.Dir != "/" {
		t.Errorf("runs in %q, want /", cmd.Dir)
	}
	for _, e := range cmd.Env {
		if strings.HasPrefix(e, "PYTHON") {
			t.Errorf("environment holds %s", e)
		}
	}
	if cmd.Env == nil {
		t.Error("inherits synth's environment")
	}
}
