package sample

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/xuri/excelize/v2"
)

var departments = []struct {
	name, location string
	base           float64
}{
	{"Engineering", "Berlin", 72000}, {"Sales", "Toronto", 54000}, {"Marketing", "Lisbon", 51000},
	{"Finance", "Osaka", 63000}, {"Support", "Nairobi", 41000},
}

// writeSheets writes an xlsx file with one sheet per entry, in order; each
// sheet is rows of cells (string, int or float64; nil is an empty cell).
func writeSheets(names []string, sheets [][][]any) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	for i, name := range names {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", name); err != nil {
				return nil, err
			}
		} else if _, err := f.NewSheet(name); err != nil {
			return nil, err
		}
		for ri, row := range sheets[i] {
			cell, _ := excelize.CoordinatesToCellName(1, ri+1)
			vals := make([]any, len(row))
			copy(vals, row)
			if err := f.SetSheetRow(name, cell, &vals); err != nil {
				return nil, fmt.Errorf("sheet %s: %w", name, err)
			}
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func makeEmployees(r *rand.Rand) ([]byte, error) {
	emp := [][]any{{"employee_id", "name", "department", "title", "hire_date", "salary", "age", "performance_score"}}
	for i := 0; i < 84; i++ {
		d := departments[r.IntN(len(departments))]
		title := pick(r, []string{"Associate", "Specialist", "Senior", "Lead", "Manager"})
		var score any = float64(20+r.IntN(31)) / 10
		var age any = 22 + r.IntN(40)
		if r.IntN(14) == 0 {
			score = nil
		}
		if r.IntN(20) == 0 {
			age = nil
		}
		emp = append(emp, []any{fmt.Sprintf("E%04d", 1001+i), personName(r), d.name, title,
			date(-r.IntN(3000)), float64(int(d.base*(0.8+0.6*r.Float64())/100) * 100), age, score})
	}
	for i := 0; i < 4; i++ { // duplicated records
		emp = append(emp, append([]any(nil), emp[1+r.IntN(len(emp)-1)]...))
	}
	dep := [][]any{{"department", "manager", "budget", "location"}}
	for _, d := range departments {
		dep = append(dep, []any{d.name, personName(r), float64(200000 + r.IntN(40)*25000), d.location})
	}
	return writeSheets([]string{"Employees", "Departments"}, [][][]any{emp, dep})
}
