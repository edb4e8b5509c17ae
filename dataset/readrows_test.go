package dataset

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"synth/agent"
	"synth/schemas"
)

// sameJSON compares *string tools columns as JSON values: ReadRows gives
// them back in canonical key order.
var sameJSON = cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Tools" },
	cmp.Transformer("json", func(s *string) any {
		if s == nil {
			return nil
		}
		var v any
		if err := json.Unmarshal([]byte(*s), &v); err != nil {
			return *s
		}
		return v
	}))

func TestReadRowsRoundTrip(t *testing.T) {
	tools := *agent.NewToolsFormat().Tools()
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
			if diff := cmp.Diff(want, got, sameJSON); diff != "" {
				t.Errorf("%s (-wrote +read):\n%s", filepath.Base(dir), diff)
			}
		})
	}
}
