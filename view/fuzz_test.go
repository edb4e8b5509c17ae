package view

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadTable feeds a rollout's output table, shown in the viewer, to the
// table reader of each kind.
func FuzzReadTable(f *testing.F) {
	f.Add(uint8(0), []byte("a,b\n1,2\n\"x\ny\",3\n"))
	f.Add(uint8(1), []byte("a\tb\n1\t2\n"))
	f.Add(uint8(2), []byte("PK\x03\x04"))
	kinds := []string{"csv", "tsv", "xlsx"}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		kind := kinds[int(which)%len(kinds)]
		p := filepath.Join(dir, "t."+kind)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		readTable(fh, kind, int64(len(data)))
	})
}
