package writer

import (
	"strings"
	"testing"

	"synth/schemas"
)

// TestPromptStatesTheReading: the writer is told how pandas reads a table
// as meant (encoding, separator, rows above it), so its reference code
// reads the same table.
func TestPromptStatesTheReading(t *testing.T) {
	p := &schemas.Preview{Columns: []schemas.Column{{Name: "a", DType: "int"}}, Rows: 3, Read: `encoding="cp1252", sep=";", skiprows=2`}
	if got := previewText(p, 2000); !strings.Contains(got, `encoding="cp1252", sep=";", skiprows=2`) {
		t.Errorf("the prompt's preview does not state the reading:\n%s", got)
	}
}
