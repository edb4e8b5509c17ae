package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A virtual environment's python is a link into /usr; its folder, which
// holds the packages, is what the sandbox binds.
func TestInterpreterRootsOfAVenv(t *testing.T) {
	venv, err := os.MkdirTemp("/tmp", "venv-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(venv) })
	if err := os.MkdirAll(filepath.Join(venv, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte("home = /usr/bin\n"), 0o644)
	py := filepath.Join(venv, "bin", "python")
	if err := os.Symlink("/usr/bin/python3", py); err != nil {
		t.Fatal(err)
	}
	if roots := interpreterRoots(py); !slices.Contains(roots, venv) {
		t.Errorf("interpreterRoots(%s) = %v, want it to hold %s", py, roots, venv)
	}
	if roots := interpreterRoots("/usr/bin/python3"); len(roots) != 0 {
		t.Errorf("Debian's python needs no roots beyond /usr: %v", roots)
	}
	// Under /tmp the folder would vanish behind each sandbox's private /tmp:
	// refused with the fix, before any zygote starts.
	_, err = New(Config{Python: py})
	if err == nil || !strings.Contains(err.Error(), "under /tmp") {
		t.Errorf("New with a python under /tmp: %v, want a refusal naming /tmp", err)
	}
}
