package checks

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"synth/pyenv"
	"synth/pyenv/pyenvtest"
	"synth/sandbox"
)

var python = pyenv.Sandbox.Python()

// openBackend starts the real sandbox backend with the checks library
// resident; the test stops as pyenvtest.Python does when the locked
// environment is not built.
func openBackend(t testing.TB) sandbox.Backend {
	t.Helper()
	return openBackendWith(t, sandbox.Config{Residents: []sandbox.Resident{Resident()}})
}

// openBackendWith is openBackend with cfg.
func openBackendWith(t testing.TB, cfg sandbox.Config) sandbox.Backend {
	t.Helper()
	pyenvtest.Python(t)
	b, err := sandbox.New(cfg)
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	sb, err := b.Open(context.Background(), sandbox.Spec{})
	if err != nil {
		t.Fatalf("sandbox does not open: %v", err)
	}
	sb.Close()
	return b
}

// dirFiles lists the regular files under dir's data/ and output/ as a
// case's files.
func dirFiles(t testing.TB, dir string) []sandbox.Input {
	t.Helper()
	var out []sandbox.Input
	for _, sub := range []string{"data", "output"} {
		err := filepath.WalkDir(filepath.Join(dir, sub), func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			out = append(out, sandbox.Input{Name: filepath.ToSlash(rel), Path: p})
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	return out
}

// needPython stops the test (see pyenvtest) when the locked environment,
// with pandas, numpy, PIL and sklearn, is not built.
func needPython(t testing.TB) {
	t.Helper()
	pyenvtest.Python(t)
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
