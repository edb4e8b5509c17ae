package checks

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

const python = "/usr/bin/python3"

// pySandbox runs each cell in a fresh /usr/bin/python3 in its workspace: no
// isolation and no state, which is all Verify needs.
type pySandbox struct{ dir string }

func (s pySandbox) Exec(ctx context.Context, code string) (sandbox.Result, error) {
	cmd := exec.CommandContext(ctx, python, "-c", code)
	cmd.Dir = s.dir
	out, err := cmd.CombinedOutput()
	status := schemas.StatusOK
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return sandbox.Result{}, err
		}
		status = schemas.StatusError
	}
	return sandbox.Result{Status: status, Output: string(out)}, nil
}
func (s pySandbox) Workspace() string { return s.dir }
func (s pySandbox) Close() error      { return nil }

// needPython skips when the core Python stack is missing.
func needPython(t testing.TB) {
	t.Helper()
	if err := exec.Command(python, "-c", "import pandas, numpy, PIL, sklearn").Run(); err != nil {
		t.Skipf("needs %s with pandas, numpy, PIL and sklearn: %v", python, err)
	}
}

// workspace builds the fixture workspace of testdata/workspace.py.
func workspace(t testing.TB) string {
	t.Helper()
	needPython(t)
	dir := t.TempDir()
	script, err := filepath.Abs("testdata/workspace.py")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("workspace.py: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "output", "rot.png")); err != nil {
		t.Fatal(err)
	}
	return dir
}
