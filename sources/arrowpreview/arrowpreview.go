package arrowpreview

import (
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"synth/schemas"
	"synth/sources"
)

const headRows = 5

func init() {
	sources.RegisterPreviewer("parquet", Parquet)
	sources.RegisterPreviewer("arrow", Arrow)
}

// Arrow previews an Arrow IPC file (Feather v2).
func Arrow(path string) (*schemas.Preview, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		return nil, fmt.Errorf("arrow: %w", err)
	}
	defer r.Close()
	p := preview(r.Schema())
	var first arrow.Record
	for i := range r.NumRecords() {
		rec, err := r.Record(i)
		if err != nil {
			return nil, fmt.Errorf("arrow batch %d: %w", i, err)
		}
		if first == nil && rec.NumRows() > 0 {
			first = rec
			first.Retain()
		}
		p.Rows += int(rec.NumRows())
	}
	p.Head = head(r.Schema(), first)
	if first != nil {
		first.Release()
	}
	return p, nil
}

func preview(s *arrow.Schema) *schemas.Preview {
	p := &schemas.Preview{}
	for _, f := range s.Fields() {
		p.Columns = append(p.Columns, schemas.Column{Name: f.Name, DType: dtype(f.Type)})
	}
	return p
}

// dtype maps an Arrow type to a preview dtype.
func dtype(t arrow.DataType) string {
	switch t.ID() {
	case arrow.BOOL:
		return "bool"
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return "int"
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.DECIMAL256:
		return "float"
	case arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP:
		return "date"
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return "string"
	case arrow.DICTIONARY:
		return dtype(t.(*arrow.DictionaryType).ValueType)
	}
	return t.String()
}

// head renders the first rows of rec (at most headRows) as text.
func head(s *arrow.Schema, rec arrow.Record) string {
	header := make([]string, len(s.Fields()))
	for i, f := range s.Fields() {
		header[i] = f.Name
	}
	var rows [][]string
	if rec != nil {
		n := min(int(rec.NumRows()), headRows)
		for r := range n {
			row := make([]string, rec.NumCols())
			for c := range int(rec.NumCols()) {
				col := rec.Column(c)
				if col.IsNull(r) {
					row[c] = "null"
				} else {
					row[c] = col.ValueStr(r)
				}
			}
			rows = append(rows, row)
		}
	}
	return sources.FormatHead(header, rows)
}
