package template

import (
	"reflect"
	"testing"
)

// TestMDTable: the Go side reads a Markdown text's pipe table as the
// reference's code does, and writes no task when "the table" is
// ambiguous or pandas would read it otherwise (a file like pandoc's test
// texts, with several tables and lines that only start with a pipe).
func TestMDTable(t *testing.T) {
	table := "| City | Pop |\n|------|----:|\n| Oslo | 700 |\n|  Lima|  10 |\n"
	want := [][]string{{"City", "Pop"}, {"Oslo", "700"}, {"Lima", "10"}}
	for _, c := range []struct {
		name, text string
		want       [][]string
	}{
		{"one table in prose", "# Cities\n\nSome text.\n\n" + table + "\nMore text.\n", want},
		{"indented", "  " + table[:14] + "\n  |---|---|\n  | Oslo | 700 |\n  | Lima | 10 |\n", want},
		{"two tables", table + "\ntext\n\n" + table, nil},
		{"a line that only starts with a pipe", table + "| Hello\n", nil},
		{"a row wider than the header", "| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| 4 | 5 |\n", nil},
		{"no separator row", "| a | b |\n| 1 | 2 |\n| 3 | 4 |\n", nil},
		{"a blank header name", "| | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n", nil},
		{"a line break only Python sees", "| a | b |\n|---|---|\n| 1 | 2 |\r| 3 | 4 |\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := mdTable(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("mdTable = %q, want %q", got, c.want)
			}
		})
	}
}
