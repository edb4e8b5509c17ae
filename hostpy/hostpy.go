// Package hostpy runs the host's Python for synth's own probes and helpers
// (never for untrusted code: that runs in the sandbox), so that nothing in
// the user's working directory, a run directory or the environment can run
// on the host.
package hostpy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Command returns python run with args after -I (isolated mode: no
// PYTHON* variables, no user site directory, neither the working directory
// nor the script's directory on sys.path), in a clean environment, from /.
// A relative python path is taken from synth's working directory.
func Command(ctx context.Context, python string, args ...string) *exec.Cmd {
	if strings.ContainsRune(python, filepath.Separator) && !filepath.IsAbs(python) {
		if abs, err := filepath.Abs(python); err == nil {
			python = abs
		}
	}
	cmd := exec.CommandContext(ctx, python, append([]string{"-I", "-B"}, args...)...)
	cmd.Env = Env()
	cmd.Dir = "/"
	return cmd
}

// Env is the environment host Python runs in: a fixed PATH and locale, and
// a home for caches (matplotlib's) outside any run directory.
func Env() []string {
	home, err := os.UserHomeDir()
	if err != nil {
		home = os.TempDir()
	}
	return []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"LANG=C.UTF-8",
		"HOME=" + home,
		"MPLBACKEND=Agg",
	}
}
