package main

import (
	"os"
	"path/filepath"
	"testing"
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := run(tc.args); got != tc.want {
				t.Errorf("synth %v exited %d, want %d", tc.args, got, tc.want)
			}
		})
	}
}
