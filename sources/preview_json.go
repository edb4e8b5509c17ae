package sources

import (
	"os"

	"synth/schemas"
	"synth/sources/tableread"
)

// maxJSONTablePreview is the largest JSON file whose table a preview
// reads (the whole document must be parsed to find it); a larger one
// shows its start only.
const maxJSONTablePreview = 16 << 20

// previewJSON shows the start of a JSON document and, when it holds a
// table (tableread.ReadJSON, as the templates read it), the table's
// columns, row count and first rows, and in Read where it lies ("the
// records under data") and the pandas call that reads it.
func previewJSON(path string) (*schemas.Preview, error) {
	p, err := previewText(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil || st.Size() > maxJSONTablePreview {
		return p, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tb, err := tableread.ReadJSON(b)
	if err != nil {
		return p, nil // a document without a table shows its start
	}
	where := tb.Layout.Where()
	if where == "" {
		where = "the records at the root"
	}
	previewJSONTable(p, tb, where)
	return p, nil
}

// previewJSONTableLines adds to a JSON Lines preview the table its lines
// make (tableread.ReadJSONLines), when every line is an object.
func previewJSONTableLines(p *schemas.Preview, path string) {
	st, err := os.Stat(path)
	if err != nil || st.Size() > maxJSONTablePreview {
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if tb, err := tableread.ReadJSONLines(b); err == nil {
		previewJSONTable(p, tb, "one record a line")
	}
}

// previewJSONTable sets p's Read (where the table lies and the pandas call
// that reads it), rows, columns and head from tb.
func previewJSONTable(p *schemas.Preview, tb *tableread.Table, where string) {
	p.Read = where + ": " + tb.Layout.Call("PATH")
	p.Rows = len(tb.Rows)
	infer := make([]dtypeGuess, len(tb.Header))
	for r, row := range tb.Rows {
		if r == dtypeRows {
			break
		}
		for i, v := range row {
			infer[i].add(v)
		}
	}
	for i, name := range tb.Header {
		dt := infer[i].dtype()
		switch {
		case tb.Objects[i]:
			dt = "object"
		case tb.Strings[i]:
			dt = "string"
		}
		p.Columns = append(p.Columns, schemas.Column{Name: name, DType: dt})
	}
	p.Head = FormatHead(tb.Header, tb.Rows[:min(len(tb.Rows), headRows)])
}
