package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLaunchRefusesNoShardsBeforeWriting: launch slurm with --shards 0 or
// a negative count is a usage error that names the flag, and the refused
// command leaves nothing behind: no run folder, no config for jobs that
// will never run.
func TestLaunchRefusesNoShardsBeforeWriting(t *testing.T) {
	for _, n := range []string{"0", "-3"} {
		run := filepath.Join(t.TempDir(), "run")
		out, err := launchCLI(t, "launch", "slurm", "-o", run, "--shards", n, "--dry-run")
		var usage usageError
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), "--shards") {
			t.Errorf("launch slurm --shards %s: %v, want a usage error naming --shards\n%s", n, err, out)
		}
		if _, err := os.Stat(run); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("launch slurm --shards %s was refused but wrote %s (%v)", n, run, err)
		}
	}
}
