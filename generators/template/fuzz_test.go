package template

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadTable feeds a collected table, of each type a template reads, to
// the table reader and the column profile built on it.
func FuzzReadTable(f *testing.F) {
	f.Add(uint8(0), []byte("id,name,score\n1,a,3.5\n2,b,\n3,c,NA\n"))
	f.Add(uint8(1), []byte("a\tb\n1\t2\n"))
	f.Add(uint8(2), []byte(`[{"a": 1, "b": "x"}, {"a": null, "c": [1]}]`))
	f.Add(uint8(2), []byte(`{"data": [{"a": 1}]}`))
	f.Add(uint8(3), []byte("PK\x03\x04"))
	types := []string{"csv", "tsv", "json", "xlsx"}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		typ := types[int(which)%len(types)]
		p := filepath.Join(dir, "t."+typ)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		tb, err := readTable(p, typ)
		if err != nil {
			return
		}
		for _, c := range tb.columns() {
			tb.floats(c.idx)
		}
	})
}
