package sandbox

import (
	"strings"
	"testing"

	"synth/schemas"
)

// TestCellError checks that a cell's exception comes back as a notebook
// client sees it (class name and str()), beside the traceback in Output,
// and that a cell that runs through has none.
func TestCellError(t *testing.T) {
	s := open(t, testBackend(t), Spec{})
	r := run(t, s, "print('before')\n1/0")
	want(t, r, schemas.StatusError, "ZeroDivisionError")
	if r.Error == nil || r.Error.Name != "ZeroDivisionError" || r.Error.Value != "division by zero" {
		t.Fatalf("error = %+v", r.Error)
	}
	if !strings.HasPrefix(r.Output, "before\n") || !strings.HasSuffix(r.Output, r.Error.Traceback) ||
		!strings.HasPrefix(r.Error.Traceback, "Traceback (most recent call last):") {
		t.Errorf("output %q does not end with the traceback %q", r.Output, r.Error.Traceback)
	}
	r = run(t, s, "class E(Exception):\n    def __str__(self): raise RuntimeError('no')\nraise E()")
	if r.Error == nil || r.Error.Name != "E" || !strings.Contains(r.Error.Value, "unprintable") {
		t.Errorf("an exception whose str() raises: %+v", r.Error)
	}
	r = run(t, s, "def f(:\n  pass")
	if r.Error == nil || r.Error.Name != "SyntaxError" || r.Error.Value == "" {
		t.Errorf("syntax error: %+v", r.Error)
	}
	r = run(t, s, "import sys; sys.exit(3)")
	if r.Error == nil || r.Error.Name != "SystemExit" {
		t.Errorf("sys.exit(3): %+v", r.Error)
	}
	if r = run(t, s, "x = 1\nx"); r.Error != nil {
		t.Errorf("a cell that ran through has the error %+v", r.Error)
	}
}
