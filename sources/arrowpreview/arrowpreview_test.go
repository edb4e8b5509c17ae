package arrowpreview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"
	pq "github.com/parquet-go/parquet-go"

	"synth/schemas"
	"synth/sources"
)

type sale struct {
	Region string   `parquet:"region"`
	Units  int64    `parquet:"units"`
	Price  *float64 `parquet:"price,optional"`
	Day    int32    `parquet:"day,date"`
	Paid   bool     `parquet:"paid"`
}

// writeParquet writes rows with parquet-go, an independent writer, in two
// row groups.
func writeParquet(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := pq.NewGenericWriter[sale](f, pq.MaxRowsPerRowGroup(4))
	price := 2.5
	var rows []sale
	for i := range 7 {
		s := sale{Region: []string{"north", "south"}[i%2], Units: int64(i * 10), Day: int32(19723 + i), Paid: i%3 == 0}
		if i != 1 {
			s.Price = &price
		}
		rows = append(rows, s)
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestParquet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sales.bin") // the name does not matter
	writeParquet(t, path)
	typ, err := sources.DetectFile(path)
	if err != nil || typ != "parquet" {
		t.Fatalf("DetectFile = %q, %v", typ, err)
	}
	p, err := sources.Preview(path, typ) // through the registered previewer
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []schemas.Column{{Name: "region", DType: "string"}, {Name: "units", DType: "int"}, {Name: "price", DType: "float"}, {Name: "day", DType: "date"}, {Name: "paid", DType: "bool"}}
	if diff := cmp.Diff(wantCols, p.Columns); diff != "" || p.Rows != 7 {
		t.Errorf("rows %d, columns (-want +got):\n%s", p.Rows, diff)
	}
	lines := strings.Split(strings.TrimSpace(p.Head), "\n")
	if len(lines) != 5 || !strings.Contains(lines[1], "north") || !strings.Contains(lines[1], "2024-01-01") || !strings.Contains(lines[2], "null") {
		t.Errorf("head:\n%s", p.Head)
	}
}

func TestArrow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.feather")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "name", Type: arrow.BinaryTypes.String}, {Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for batch := range 2 {
		b.Field(0).(*array.StringBuilder).AppendValues([]string{"ann", "bob", "cy"}, nil)
		b.Field(1).(*array.Float64Builder).AppendValues([]float64{1.5, 0, float64(batch)}, []bool{true, false, true})
		rec := b.NewRecord()
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	typ, _ := sources.DetectFile(path)
	if typ != "arrow" {
		t.Fatalf("DetectFile = %q", typ)
	}
	p, err := sources.Preview(path, typ)
	if err != nil {
		t.Fatal(err)
	}
	if p.Rows != 6 || len(p.Columns) != 2 || p.Columns[1].DType != "float" || !strings.Contains(p.Head, "null") || !strings.Contains(p.Head, "ann") {
		t.Errorf("preview = %+v\n%s", p, p.Head)
	}
}

func TestBroken(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"cut.parquet": "PAR1\x00\x00PAR1", "cut.arrow": "ARROW1\x00\x00garbage"} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(body), 0o644)
		typ, _ := sources.DetectFile(path)
		if _, err := sources.Preview(path, typ); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
