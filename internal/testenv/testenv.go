package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// CI reports whether the tests run in CI (CI=true), where a missing tool is
// a failure rather than a skip.
func CI() bool { return os.Getenv("CI") == "true" }

// Missing stops t for a missing tool: t.Fatal under CI=true, t.Skip
// otherwise. The message names the tool and the command that installs it.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if CI() {
		t.Fatal(msg + " (CI=true: make test installs it, so a missing tool is a failure)")
	}
	t.Skip(msg)
}

// LookPath returns the path of the program name, or stops t with install,
// the way to get it (e.g. "apt-get install ffmpeg"), when it is not on PATH.
func LookPath(t testing.TB, name, install string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "needs %s, not found on PATH: %s", name, install)
	}
	return p
}

// Root stops t unless the test runs as root; why says what needs it.
func Root(t testing.TB, why string) {
	t.Helper()
	if os.Geteuid() != 0 {
		Missing(t, "needs root: %s (run make test as root or with sudo)", why)
	}
}

// CopyTree copies the folder src, with everything under it, to a folder
// named name in a fresh temporary folder, and returns the copy's path.
func CopyTree(t testing.TB, src, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v %s", src, err, out)
	}
	return dst
}
