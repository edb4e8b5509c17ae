package dataset

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"synth/schemas"
)

func TestReadRowsRoundTrip(t *testing.T) {
	tools := `[{"type":"function"}]`
	for _, format := range []string{FormatPyBench, FormatOpenAITools} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			w, err := NewWriter(dir, Config{Format: format, ShardRows: 3})
			if err != nil {
				t.Fatal(err)
			}
			var want []schemas.Row
			for i := range 5 {
				r := testRow(i)
				if format == FormatOpenAITools {
					r.Tools = &tools
					r.Messages[3].ToolCalls = []schemas.ToolCall{{ID: "c1", Name: "execute_python", Arguments: `{"code":"print(1)"}`}}
					r.Messages[4] = schemas.RowMessage{Role: "tool", Content: "1", ToolCallID: "c1"}
				}
				want = append(want, r)
				if err := w.Write(r); err != nil {
					t.Fatal(err)
				}
			}
			paths, err := w.Close()
			if err != nil {
				t.Fatal(err)
			}
			var got []schemas.Row
			for _, p := range paths {
				if err := ReadRows(p, func(r *schemas.Row) error { got = append(got, *r); return nil }); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-wrote +read):\n%s", filepath.Base(dir), diff)
			}
		})
	}
}
