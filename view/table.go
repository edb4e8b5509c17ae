package view

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Limits on a table a page shows.
const (
	maxTableRows  = 50
	maxTableCols  = 40
	maxCell       = 300
	maxSheets     = 5
	maxXLSXBytes  = 32 << 20
	maxXLSXUnzip  = 256 << 20
	maxXLSXSheetX = 64 << 20
)

// Table is the start of a CSV, TSV or XLSX file: a sheet per worksheet
// (one for CSV and TSV), each its first rows; the first row is the header
// as the file has it.
type Table struct {
	Sheets []Sheet `json:"sheets"`
}

// Sheet is one worksheet's first rows.
type Sheet struct {
	Name string     `json:"name,omitempty"`
	Rows [][]string `json:"rows"`
	More bool       `json:"more,omitempty"` // rows or columns were left out
}

// readTable reads the start of f as a table of kind csv, tsv or xlsx.
func readTable(f *os.File, kind string, size int64) (*Table, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if kind == "xlsx" {
		return readXLSX(f, size)
	}
	r := csv.NewReader(f)
	if kind == "tsv" {
		r.Comma = '\t'
	}
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = true
	var sh Sheet
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if len(sh.Rows) == 0 {
				return nil, err
			}
			sh.More = true
			break
		}
		if len(sh.Rows) == maxTableRows {
			sh.More = true
			break
		}
		sh.Rows = append(sh.Rows, tableRow(rec, &sh.More))
	}
	return &Table{Sheets: []Sheet{sh}}, nil
}

func readXLSX(f *os.File, size int64) (*Table, error) {
	if size > maxXLSXBytes {
		return nil, fmt.Errorf("larger than %s", sizeText(maxXLSXBytes))
	}
	wb, err := excelize.OpenReader(f, excelize.Options{UnzipSizeLimit: maxXLSXUnzip, UnzipXMLSizeLimit: maxXLSXSheetX})
	if err != nil {
		return nil, err
	}
	defer wb.Close()
	t := &Table{}
	for i, name := range wb.GetSheetList() {
		if i == maxSheets {
			t.Sheets[len(t.Sheets)-1].More = true
			break
		}
		sh, err := readSheet(wb, name)
		if err != nil {
			return nil, fmt.Errorf("sheet %q: %w", name, err)
		}
		t.Sheets = append(t.Sheets, sh)
	}
	return t, nil
}

func readSheet(wb *excelize.File, name string) (Sheet, error) {
	sh := Sheet{Name: name}
	rows, err := wb.Rows(name)
	if err != nil {
		return sh, err
	}
	defer rows.Close()
	for rows.Next() {
		if len(sh.Rows) == maxTableRows {
			sh.More = true
			break
		}
		cols, err := rows.Columns()
		if err != nil {
			return sh, err
		}
		sh.Rows = append(sh.Rows, tableRow(cols, &sh.More))
	}
	return sh, rows.Error()
}

// tableRow copies a record, cut to the table limits.
func tableRow(rec []string, more *bool) []string {
	if len(rec) > maxTableCols {
		rec, *more = rec[:maxTableCols], true
	}
	row := make([]string, len(rec))
	for i, c := range rec {
		if len(c) > maxCell {
			c = strings.ToValidUTF8(c[:maxCell], "") + "…"
		}
		row[i] = strings.ToValidUTF8(c, "\uFFFD")
	}
	return row
}
