package launch

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteSlurmReportsWhatItCannotWrite: a run folder that cannot be made
// (a file stands in the way) or a script that cannot be written (a folder
// holds its name) is an error, never a list of scripts that are not there.
func TestWriteSlurmReportsWhatItCannotWrite(t *testing.T) {
	blocked := filepath.Join(t.TempDir(), "run")
	if err := os.WriteFile(blocked, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if scripts, err := WriteSlurm(Slurm{Run: blocked, Synth: "/opt/synth", Config: "c.yaml", Shards: 1}); err == nil {
		t.Errorf("a run folder that is a file: wrote %v", scripts)
	}
	run := filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(filepath.Join(Dir(run), MergeScript), 0o755); err != nil {
		t.Fatal(err)
	}
	if scripts, err := WriteSlurm(Slurm{Run: run, Synth: "/opt/synth", Config: "c.yaml", Shards: 1}); err == nil {
		t.Errorf("a folder in place of the merge script: wrote %v", scripts)
	}
}
