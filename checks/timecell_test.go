package checks

import (
	"os/exec"
	"strings"
	"testing"

	"synth/pyenv/pyenvtest"
)

// TestTimeOfDayCell: a spreadsheet's time cell (pandas reads an xls or
// xlsx time without a date as datetime.time) is written as its clock
// time when a table check compares cells as text, not an error.
func TestTimeOfDayCell(t *testing.T) {
	python := pyenvtest.Python(t)
	code := Library + "\nimport datetime\nprint(_text_cell(datetime.time(6, 34)), _text_cell(datetime.datetime(2009, 8, 16)), _text_cell(datetime.datetime(2009, 8, 16, 6, 34)))\n"
	out, err := exec.Command(python, "-c", code).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "06:34:00 2009-08-16 2009-08-16 06:34:00" {
		t.Errorf("cells written %q", got)
	}
}
