package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"synth/schemas"
)

func TestCollectArtifacts(t *testing.T) {
	ws, store := t.TempDir(), t.TempDir()
	out := filepath.Join(ws, "output")
	os.MkdirAll(filepath.Join(out, "sub"), 0o755)
	os.WriteFile(filepath.Join(out, "b.csv"), []byte("b\n"), 0o644)
	os.WriteFile(filepath.Join(out, "sub", "a.png"), []byte("png"), 0o644)
	os.WriteFile(filepath.Join(out, "same.csv"), []byte("b\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "not-output.txt"), []byte("x"), 0o644)

	arts, err := CollectArtifacts(ws, store)
	if err != nil {
		t.Fatal(err)
	}
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	want := []struct {
		path, sha string
		size      int64
	}{
		{"output/b.csv", sum("b\n"), 2},
		{"output/same.csv", sum("b\n"), 2},
		{"output/sub/a.png", sum("png"), 3},
	}
	if len(arts) != len(want) {
		t.Fatalf("%+v", arts)
	}
	for i, w := range want {
		if arts[i].Path != w.path || arts[i].SHA256 != w.sha || arts[i].Size != w.size {
			t.Errorf("artifact %d: %+v, want %+v", i, arts[i], w)
		}
		got, err := os.ReadFile(filepath.Join(store, w.sha[:2], w.sha))
		if err != nil || int64(len(got)) != w.size {
			t.Errorf("store copy of %s: %q, %v", w.path, got, err)
		}
	}
	ents, _ := os.ReadDir(store)
	if len(ents) != 2 {
		t.Errorf("store holds %d entries, want 2 (content-addressed, no temporaries)", len(ents))
	}
	// A second collection finds the copies present and changes nothing.
	again, err := CollectArtifacts(ws, store)
	if err != nil || len(again) != 3 {
		t.Fatalf("%+v %v", again, err)
	}
	// A symlink anywhere under output/ fails the collection.
	os.Symlink("/etc/passwd", filepath.Join(out, "sub", "link"))
	var ce *CollectError
	if _, err := CollectArtifacts(ws, t.TempDir()); !errors.As(err, &ce) || ce.Reason != schemas.FailArtifactError || ce.Path != "output/sub/link" {
		t.Errorf("symlink: %v", err)
	}
	// No output/ at all: no artifacts, no error.
	if arts, err := CollectArtifacts(t.TempDir(), store); err != nil || len(arts) != 0 {
		t.Errorf("empty workspace: %+v %v", arts, err)
	}
}
