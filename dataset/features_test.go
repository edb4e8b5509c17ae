package dataset

import (
	"os"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestEveryColumnHasAFeature: in both layouts the shards' columns are the
// card's dataset_info features, by name and in order, so a column added to
// a row without a feature (or the reverse) fails here.
func TestEveryColumnHasAFeature(t *testing.T) {
	for _, format := range []string{FormatPyBench, FormatOpenAITools} {
		paths := writeRows(t, t.TempDir(), Config{Format: format}, 3)
		f, err := os.Open(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		pf, err := parquet.OpenFile(f, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		cols := pf.Schema().Fields()
		feats := Features(format)
		if len(cols) != len(feats) {
			t.Errorf("%s: %d columns, %d features", format, len(cols), len(feats))
		}
		for i := range min(len(cols), len(feats)) {
			if cols[i].Name() != feats[i].Name {
				t.Errorf("%s: column %d is %q, its feature %q", format, i, cols[i].Name(), feats[i].Name)
			}
		}
		f.Close()
	}
}
