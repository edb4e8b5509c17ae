package arrowpreview

import (
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"synth/schemas"
	"synth/sources"
)

// Parquet previews a Parquet file: its leaf columns with dtypes, the row
// count from the footer and the first rows of the first row group. It
// reads with Arrow Go's Parquet file reader, column by column, so any
// writer's files (pandas, Spark, DuckDB) preview alike; nested columns
// show their first leaf values.
func Parquet(path string) (*schemas.Preview, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	defer rdr.Close()
	sc := rdr.MetaData().Schema
	p := &schemas.Preview{Rows: int(rdr.NumRows())}
	header := make([]string, sc.NumColumns())
	for i := range sc.NumColumns() {
		col := sc.Column(i)
		header[i] = col.Name()
		if col.MaxRepetitionLevel() > 0 {
			header[i] = col.Path()
		}
		p.Columns = append(p.Columns, schemas.Column{Name: header[i], DType: parquetDtype(col)})
	}
	var rows [][]string
	if rdr.NumRowGroups() > 0 && p.Rows > 0 {
		n := min(headRows, int(rdr.RowGroup(0).NumRows()))
		rows = make([][]string, n)
		for r := range rows {
			rows[r] = make([]string, sc.NumColumns())
		}
		for i := range sc.NumColumns() {
			vals, err := firstValues(rdr.RowGroup(0), i, sc.Column(i), n)
			if err != nil {
				return nil, fmt.Errorf("parquet column %s: %w", header[i], err)
			}
			for r := range n {
				rows[r][i] = vals[r]
			}
		}
	}
	p.Head = sources.FormatHead(header, rows)
	return p, nil
}

// firstValues reads the first n values of column i as text, "null" for nulls.
func firstValues(rg *file.RowGroupReader, i int, col *schema.Column, n int) ([]string, error) {
	cr, err := rg.Column(i)
	if err != nil {
		return nil, err
	}
	def := make([]int16, n)
	out := make([]string, n)
	var texts []string
	var levels int64
	switch r := cr.(type) {
	case *file.BooleanColumnChunkReader:
		v := make([]bool, n)
		levels, _, err = r.ReadBatch(int64(n), v, def, nil)
		texts = each(v, strconv.FormatBool)
	case *file.Int32ColumnChunkReader:
		v := make([]int32, n)
		levels, _, err = r.ReadBatch(int64(n), v, def, nil)
		texts = each(v, func(x int32) string { return int32Text(col, x) })
	case *file.Int64ColumnChunkReader:
		v := make([]int64, n)
		levels, _, err = r.ReadBatch(int64(n), v, def, nil)
		texts = each(v, func(x int64) string { return int64Text(col, x) })
	case *file.Float32ColumnChunkReader:
		v := make([]float32, n)
		levels, _, err = r.ReadBatch(int64(n), v, def, nil)
		texts = each(v, func(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) })
	case *file.Float64ColumnChunkReader:
		v := make([]float64, n)
		levels, _, err = r.ReadBatch(int64(n), v, def, nil)
		texts = each(v, func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) })
	case *file.ByteArrayColumnChunkReader:
		v := make([]parquet.ByteArray, n)
		levels, _, err = r.ReadBatch(int64(n), v, def, nil)
		texts = each(v, func(x parquet.ByteArray) string { return bytesText(col, x) })
	case *file.FixedLenByteArrayColumnChunkReader:
		v := make([]parquet.FixedLenByteArray, n)
		levels, _, err = r.ReadBatch(int64(n), v, def, nil)
		texts = each(v, func(x parquet.FixedLenByteArray) string { return fixedText(col, x) })
	case *file.Int96ColumnChunkReader:
		v := make([]parquet.Int96, n)
		levels, _, err = r.ReadBatch(int64(n), v, def, nil)
		texts = each(v, func(x parquet.Int96) string { return x.ToTime().UTC().Format(time.RFC3339) })
	default:
		return nil, fmt.Errorf("unsupported column reader %T", cr)
	}
	if err != nil {
		return nil, err
	}
	// Values come packed: a level below the maximum is a null.
	k := 0
	for r := range int(levels) {
		if r >= n {
			break
		}
		if def[r] < col.MaxDefinitionLevel() {
			out[r] = "null"
			continue
		}
		if k < len(texts) {
			out[r] = texts[k]
			k++
		}
	}
	return out, nil
}

func each[T any](v []T, f func(T) string) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}

func int32Text(col *schema.Column, x int32) string {
	if _, ok := col.LogicalType().(*schema.DateLogicalType); ok || col.ConvertedType() == schema.ConvertedTypes.Date {
		return time.Unix(int64(x)*86400, 0).UTC().Format("2006-01-02")
	}
	if d, ok := col.LogicalType().(*schema.DecimalLogicalType); ok {
		return decimalText(big.NewInt(int64(x)), d.Scale())
	}
	return strconv.FormatInt(int64(x), 10)
}

func int64Text(col *schema.Column, x int64) string {
	if ts, ok := col.LogicalType().(*schema.TimestampLogicalType); ok {
		var t time.Time
		switch ts.TimeUnit() {
		case schema.TimeUnitMillis:
			t = time.UnixMilli(x)
		case schema.TimeUnitMicros:
			t = time.UnixMicro(x)
		default:
			t = time.Unix(0, x)
		}
		return t.UTC().Format(time.RFC3339)
	}
	if d, ok := col.LogicalType().(*schema.DecimalLogicalType); ok {
		return decimalText(big.NewInt(x), d.Scale())
	}
	return strconv.FormatInt(x, 10)
}

func bytesText(col *schema.Column, x parquet.ByteArray) string {
	if d, ok := col.LogicalType().(*schema.DecimalLogicalType); ok {
		return decimalText(twos(x), d.Scale())
	}
	return string(x)
}

func fixedText(col *schema.Column, x parquet.FixedLenByteArray) string {
	if d, ok := col.LogicalType().(*schema.DecimalLogicalType); ok {
		return decimalText(twos(x), d.Scale())
	}
	return fmt.Sprintf("%x", []byte(x))
}

// twos reads a big-endian two's-complement integer.
func twos(b []byte) *big.Int {
	v := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return v
}

func decimalText(v *big.Int, scale int32) string {
	if scale <= 0 {
		return v.String()
	}
	r := new(big.Rat).SetFrac(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	return r.FloatString(int(scale))
}

// parquetDtype maps a leaf column to a preview dtype.
func parquetDtype(col *schema.Column) string {
	lt := col.LogicalType()
	switch lt.(type) {
	case *schema.StringLogicalType, *schema.EnumLogicalType, *schema.JSONLogicalType:
		return "string"
	case *schema.DateLogicalType, *schema.TimestampLogicalType:
		return "date"
	case *schema.DecimalLogicalType:
		return "float"
	case *schema.IntLogicalType:
		return "int"
	}
	switch col.ConvertedType() {
	case schema.ConvertedTypes.UTF8:
		return "string"
	case schema.ConvertedTypes.Date, schema.ConvertedTypes.TimestampMillis, schema.ConvertedTypes.TimestampMicros:
		return "date"
	}
	switch col.PhysicalType() {
	case parquet.Types.Boolean:
		return "bool"
	case parquet.Types.Int32, parquet.Types.Int64:
		return "int"
	case parquet.Types.Float, parquet.Types.Double:
		return "float"
	case parquet.Types.Int96:
		return "date"
	case parquet.Types.ByteArray:
		return "string"
	}
	return "bytes"
}
