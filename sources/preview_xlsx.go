package sources

import (
	"errors"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"

	"synth/schemas"
	"synth/sources/tableread"
)

// previewXLSX lists a workbook's sheets and previews the table package
// tableread finds on the first (none when its layout is ambiguous).
// It stays within the preview budgets: parts that unpack past
// PreviewMaxBytes or PreviewMaxRatio are refused before they are unpacked,
// and a first sheet past the rows or time budget before it is read whole.
func previewXLSX(path string) (*schemas.Preview, error) {
	if err := checkXLSXParts(path); err != nil {
		return nil, err
	}
	opts := excelize.Options{UnzipSizeLimit: PreviewMaxBytes, UnzipXMLSizeLimit: 64 << 20}
	wb, err := excelize.OpenFile(path, opts)
	if err != nil {
		return nil, err
	}
	p := &schemas.Preview{Sheets: wb.GetSheetList()}
	if len(p.Sheets) == 0 {
		wb.Close()
		return p, nil
	}
	err = rowsWithinBudget(wb, p.Sheets[0])
	wb.Close()
	if err != nil {
		return nil, err
	}
	tb, err := tableread.ReadXLSX(path, opts)
	if err != nil {
		var amb *tableread.Ambiguous
		if errors.As(err, &amb) || errors.Is(err, tableread.ErrNoTable) {
			// Sheets listed; the table is not told. The file is still
			// collected, and a template that wants a table says why it has
			// no task in tasks.report.md.
			return p, nil
		}
		return nil, err
	}
	previewSheetTable(p, tb)
	return p, nil
}

// previewXLS lists a legacy workbook's worksheets and previews the table
// package tableread finds on the first sheet that holds one, as
// tableread.ReadXLS does (none when no sheet's layout is sure). tableread bounds the read: the file's size, a sheet's cells.
func previewXLS(path string) (*schemas.Preview, error) {
	sheets, err := tableread.ReadXLSSheets(path)
	if err != nil {
		return nil, err
	}
	p := &schemas.Preview{}
	for _, s := range sheets {
		p.Sheets = append(p.Sheets, s.Name)
	}
	if len(sheets) > 0 && errors.Is(sheets[0].Err, tableread.ErrUnreadable) {
		return nil, fmt.Errorf("xls %s: %w", path, sheets[0].Err)
	}
	for _, s := range sheets {
		if s.Err == nil { // the table templates read: the first sheet's that holds one
			previewSheetTable(p, s.Table)
			break
		}
	}
	return p, nil
}

// previewSheetTable fills p with a sheet's table: its columns and their
// dtypes, its rows, how pandas reads it and its head.
func previewSheetTable(p *schemas.Preview, tb *tableread.Table) {
	infer := make([]dtypeGuess, len(tb.Header))
	for _, rec := range tb.Rows[:min(len(tb.Rows), dtypeRows)] {
		for i := range min(len(rec), len(infer)) {
			infer[i].add(rec[i])
		}
	}
	for i, name := range tb.Header {
		p.Columns = append(p.Columns, schemas.Column{Name: name, DType: infer[i].dtype()})
	}
	p.Rows = len(tb.Rows)
	p.Read = strings.Join(tb.Layout.Args(), ", ")
	p.Head = FormatHead(tb.Header, tb.Rows[:min(len(tb.Rows), headRows)])
}

// rowsWithinBudget streams a sheet's rows against the preview budgets.
func rowsWithinBudget(wb *excelize.File, sheet string) error {
	rows, err := wb.Rows(sheet)
	if err != nil {
		return fmt.Errorf("sheet %s: %w", sheet, err)
	}
	defer rows.Close()
	budget := newTableBudget()
	for rows.Next() {
		if err := budget.row(); err != nil {
			return fmt.Errorf("sheet %s: %w", sheet, err)
		}
	}
	if err := rows.Error(); err != nil {
		return fmt.Errorf("sheet %s: %w", sheet, err)
	}
	return nil
}
