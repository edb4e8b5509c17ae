package sources

import (
	"fmt"

	"github.com/xuri/excelize/v2"

	"synth/schemas"
)

// previewXLSX lists a workbook's sheets and previews the first as a table.
// It stays within the preview budgets: parts that unpack past
// PreviewMaxBytes or PreviewMaxRatio are refused before they are unpacked.
func previewXLSX(path string) (*schemas.Preview, error) {
	if err := checkXLSXParts(path); err != nil {
		return nil, err
	}
	wb, err := excelize.OpenFile(path, excelize.Options{UnzipSizeLimit: PreviewMaxBytes, UnzipXMLSizeLimit: 64 << 20})
	if err != nil {
		return nil, err
	}
	defer wb.Close()
	p := &schemas.Preview{Sheets: wb.GetSheetList()}
	if len(p.Sheets) == 0 {
		return p, nil
	}
	rows, err := wb.Rows(p.Sheets[0])
	if err != nil {
		return nil, fmt.Errorf("sheet %s: %w", p.Sheets[0], err)
	}
	defer rows.Close()
	var header []string
	var first [][]string
	var infer []dtypeGuess
	budget := newTableBudget()
	for rows.Next() {
		rec, err := rows.Columns()
		if err != nil {
			return nil, fmt.Errorf("sheet %s: %w", p.Sheets[0], err)
		}
		if header == nil {
			if len(rec) == 0 {
				continue
			}
			header = rec
			infer = make([]dtypeGuess, len(header))
			continue
		}
		if err := budget.row(); err != nil {
			return nil, fmt.Errorf("sheet %s: %w", p.Sheets[0], err)
		}
		if p.Rows < headRows {
			first = append(first, rec)
		}
		if p.Rows < dtypeRows {
			for i := range min(len(rec), len(infer)) {
				infer[i].add(rec[i])
			}
		}
		p.Rows++
	}
	for i, name := range header {
		p.Columns = append(p.Columns, schemas.Column{Name: name, DType: infer[i].dtype()})
	}
	if header != nil {
		p.Head = FormatHead(header, first)
	}
	return p, nil
}
