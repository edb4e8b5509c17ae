package template

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"synth/generators"
	"synth/schemas"
	"synth/sources/sample"
)

// corpus writes the built-in corpus to a temporary directory and returns it
// as generator inputs, with a map from file id to host path.
func corpus(t testing.TB) ([]generators.Input, map[string]string) {
	t.Helper()
	files, err := sample.Files(1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var ins []generators.Input
	paths := map[string]string{}
	for _, f := range files {
		p := filepath.Join(dir, f.Name)
		if err := os.WriteFile(p, f.Body, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(f.Body)
		id := hex.EncodeToString(sum[:])
		ins = append(ins, generators.Input{File: schemas.File{ID: id, Name: f.Name, Type: f.Type, Size: int64(len(f.Body))}, Path: p})
		paths[id] = p
	}
	return ins, paths
}

func generate(t testing.TB, opts Options) []schemas.Task {
	t.Helper()
	ins, _ := corpus(t)
	tasks, err := New(opts).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}
