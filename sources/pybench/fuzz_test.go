package pybench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds an imported benchmark's task list, untrusted JSON, to the
// checkout reader (without a tests file, so no Python runs).
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`[{"index":"1","category1":"数据清洗","category2":"x","user":"q","file_paths":["./data/a.csv"]}]`))
	f.Add([]byte(`[{"index":2,"file_paths":["../../etc/passwd","/abs"]}]`))
	f.Add([]byte(`[{"index":null,"file_paths":null}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, filepath.FromSlash(TaskFile))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		LoadWith(context.Background(), dir, Options{})
	})
}
