//go:build manual

package sample

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDump writes the built-in corpus into a directory, to look at it by
// hand. It is manual, behind the build tag:
//
//	SAMPLE_DUMP=/tmp/corpus go test -tags manual -run TestDump ./sources/sample/
func TestDump(t *testing.T) {
	dir := os.Getenv("SAMPLE_DUMP")
	if dir == "" {
		t.Fatal("set SAMPLE_DUMP to the directory to write the corpus into")
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
