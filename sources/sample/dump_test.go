package sample

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDump(t *testing.T) {
	dir := os.Getenv("SAMPLE_DUMP")
	if dir == "" {
		t.Skip("SAMPLE_DUMP not set")
	}
	files, err := Files(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
