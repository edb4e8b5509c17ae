package template

import (
	"errors"
	"io"
	"os"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// readParquetTable reads a flat Parquet file: one column per leaf, values
// rendered as text, nulls as "".
func readParquetTable(path string) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, err
	}
	var header []string
	for _, fl := range pf.Schema().Fields() {
		if !fl.Leaf() {
			return nil, errors.New("nested parquet schema")
		}
		header = append(header, fl.Name())
	}
	t := &table{header: header}
	rd := parquet.NewReader(pf)
	defer rd.Close()
	buf := make([]parquet.Row, 256)
	for {
		n, err := rd.ReadRows(buf)
		for _, row := range buf[:n] {
			cells := make([]string, len(header))
			for _, v := range row {
				c := v.Column()
				if c < 0 || c >= len(cells) || v.IsNull() {
					continue
				}
				cells[c] = parquetText(v)
			}
			t.rows = append(t.rows, cells)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return t, nil
}

func parquetText(v parquet.Value) string {
	switch v.Kind() {
	case parquet.Boolean:
		if v.Boolean() {
			return "True"
		}
		return "False"
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10)
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10)
	case parquet.Float:
		return strconv.FormatFloat(float64(v.Float()), 'f', -1, 32)
	case parquet.Double:
		return strconv.FormatFloat(v.Double(), 'f', -1, 64)
	}
	return string(v.ByteArray())
}
