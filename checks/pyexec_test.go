package checks

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"synth/sandbox"
)

const python = "/usr/bin/python3"

// openSandbox opens the real sandbox on dir; the test skips when no
// backend can start here.
func openSandbox(t testing.TB, dir string) sandbox.Sandbox {
	t.Helper()
	b, err := sandbox.New(sandbox.Config{})
	if err != nil {
		t.Skipf("no sandbox backend: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	sb, err := b.Open(context.Background(), sandbox.Spec{Workspace: dir})
	if err != nil {
		t.Skipf("sandbox does not open: %v", err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

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
