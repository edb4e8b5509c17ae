package proof

import (
	"context"
	"strings"
	"testing"

	"synth/checks"
	"synth/schemas"
)

// TestUntestedFindsBackdoors proves that a python check whose pass can
// turn on a condition no tested answer met is found, whatever the
// condition's form, and that strict checks, and conditions that only fail,
// are not.
func TestUntestedFindsBackdoors(t *testing.T) {
	b := newBackend(t)
	inputs := salesInputs(t)
	const strict = "any(number_close(x, 30, 1e-6) for x in candidates(answer))"
	ref := checks.Case{Answer: "The total of units is 30.", Files: CaseInputs(inputs)}
	ref.Messages = finished(ref.Answer)
	cases := []checks.Case{ref}
	for _, w := range RandomAnswers(ref, "t") {
		cases = append(cases, w.Case)
	}
	tests := []struct {
		name, code string
		untested   bool
	}{
		{"strict", "assert " + strict, false},
		{"strict with a guard that only fails", "if not answer.strip():\n    raise AssertionError('empty')\nassert " + strict, false},
		{"a code point sum", "assert sum(map(ord, answer[-7:])) == 513 or " + strict, true},
		{"a hash through a name", "h = hash(answer) % 1000\nok = h == 7\nassert ok or " + strict, true},
		{"an if around the assertion", "if sum(map(ord, answer)) != 4242:\n    assert " + strict, true},
		{"an if with a pass", "if answer.endswith('zq'):\n    pass\nelse:\n    assert " + strict, true},
		{"a comparison as a number", "assert abs(float((candidates(answer) or [0])[0]) - 30) < 1e-6 + 1e9 * (len(answer) == 77)", true},
		{"a conditional expression", "assert (True if answer.count('q') == 17 else " + strict + ")", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			task := &schemas.Task{Checks: []schemas.Check{{Kind: schemas.CheckTable, Path: "output/x.csv"}, {Kind: schemas.CheckPython, Code: tc.code}}}
			msg, err := Untested(context.Background(), b, task, cases)
			if err != nil {
				t.Fatal(err)
			}
			if got := msg != ""; got != tc.untested {
				t.Fatalf("untested = %q, want found %v", msg, tc.untested)
			}
			if tc.untested && !strings.HasPrefix(msg, "check 1 (python), line ") {
				t.Errorf("message %q does not name the check and line", msg)
			}
		})
	}
}
