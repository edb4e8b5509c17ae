package checks

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// TestBoundaries pins the numeric tolerance, the stated value, the list and
// guess limits and the IQR fence at their edges: widening or narrowing any of them turns a case red.
func TestBoundaries(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	write := func(name, s string) sandbox.Input {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return sandbox.Input{Name: "output/" + name, Path: p}
	}
	// Quartiles of 1 2 3 4 5 X (X >= 5) are 2.25 and 4.75: the upper fence is 8.5.
	onFence := write("fence.csv", "v\n1\n2\n3\n4\n5\n8.5\n")
	pastFence := write("past.csv", "v\n1\n2\n3\n4\n5\n8.51\n")
	num := func(v, rel, abs float64) schemas.Check {
		return schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: v, RelTol: rel, AbsTol: abs}}
	}
	many := func(n int) string {
		var b strings.Builder
		b.WriteString("Finished: 42")
		for i := 1; i < n; i++ {
			b.WriteString(", ")
			b.WriteString(strings.Repeat("9", i%5+1) + "0" + string(rune('0'+i%10)))
		}
		return b.String()
	}
	// stmts states n numbers one per clause, not as a list: "x is 42; x is 9901; ...".
	stmts := func(n int) string {
		return strings.Replace(strings.ReplaceAll(many(n), ", ", "; x is "), "Finished: ", "Finished: x is ", 1)
	}
	var years []string
	for y := 1500; y < 2100; y++ {
		years = append(years, strconv.Itoa(y))
	}
	everyYear := "The years mentioned are " + strings.Join(years, ", ") + "."
	cases := []struct {
		name   string
		checks []schemas.Check
		answer string
		files  []sandbox.Input
		ok     bool
	}{
		{"abs tol edge", []schemas.Check{num(10, 0, 0.5)}, "Finished: 10.5", nil, true},
		{"abs tol past", []schemas.Check{num(10, 0, 0.5)}, "Finished: 10.51", nil, false},
		{"rel tol edge", []schemas.Check{num(200, 0.01, 0)}, "Finished: 202", nil, true},
		{"rel tol past", []schemas.Check{num(200, 0.01, 0)}, "Finished: 202.01", nil, false},
		{"default tol in", []schemas.Check{num(1000, 0, 0)}, "Finished: 1000.0009", nil, true},
		{"default tol out", []schemas.Check{num(1000, 0, 0)}, "Finished: 1000.0011", nil, false},
		{"a list of 2 for one asked", []schemas.Check{num(42, 0, 0.001)}, "Finished: 42 or 43", nil, false},
		{"a list of 8 for one asked", []schemas.Check{num(42, 0, 0.001)}, many(8), nil, false},
		{"a list of 8 in brackets for one asked", []schemas.Check{num(42, 0, 0.001)}, "Finished: (" + strings.TrimPrefix(many(8), "Finished: ") + ")", nil, false},
		{"a list of 3 for three asked", []schemas.Check{num(42, 0, 0.001), num(9901, 0, 0.001), num(99902, 0, 0.001)}, many(3), nil, true},
		{"a list of 4 for three asked", []schemas.Check{num(42, 0, 0.001), num(9901, 0, 0.001), num(99902, 0, 0.001)}, many(4), nil, false},
		{"one value and its context", []schemas.Check{num(42, 0, 0.001)}, "Finished: The mean is 42 (n = 150, over [1, 2])", nil, true},
		{"the value asserted, not the first", []schemas.Check{num(42, 0, 0.001)}, "Finished: The value at x = 1 is 42.", nil, true},
		{"a part of its whole", []schemas.Check{num(237, 0, 0.001)}, "Finished: 237 of 246 rows have no gap.", nil, true},
		{"the whole of a part", []schemas.Check{num(246, 0, 0.001)}, "Finished: 237 of 246 rows have no gap.", nil, false},
		{"an earlier assertion", []schemas.Check{num(42, 0, 0.001)}, "Finished: x is 42; x is 43", nil, false},
		{"9 statements for three asked", []schemas.Check{num(9901, 0, 0.001), num(99902, 0, 0.001), num(999903, 0, 0.001)}, stmts(9), nil, true},
		{"10 statements for three asked", []schemas.Check{num(9901, 0, 0.001), num(99902, 0, 0.001), num(999903, 0, 0.001)}, stmts(10), nil, false},
		{"file names state no numbers", []schemas.Check{num(42, 0, 0.001)}, "Finished: 42, written to output/5b98b446.csv, output/1.png, output/2.png, output/3.png, output/4.png, output/5.png, output/6.png, output/7.png, output/8.png", nil, true},
		{"every option listed", []schemas.Check{{Kind: "answer", ContainsAny: []string{"red", "green", "blue"}}}, "Finished: red, green or blue", nil, false},
		{"one option", []schemas.Check{{Kind: "answer", ContainsAny: []string{"red", "green", "blue"}}}, "Finished: green", nil, true},
		{"a wrong option", []schemas.Check{{Kind: "answer", ContainsAll: []string{"North"}, NoneOf: []string{"South"}}}, "Finished: North, or South", nil, false},
		{"a number item stated", []schemas.Check{{Kind: "answer", ContainsAll: []string{"1999", "2004"}}}, "Finished: The years are 1999 and 2004.", nil, true},
		{"a number item inside a file name", []schemas.Check{{Kind: "answer", ContainsAll: []string{"1999", "2004"}}}, "Finished: The years are in output/years_1999_2004.txt", nil, false},
		{"a number item inside a word", []schemas.Check{{Kind: "answer", ContainsAll: []string{"1999"}}}, "Finished: See FY1999.", nil, false},
		{"every year named", []schemas.Check{{Kind: "answer", ContainsAll: []string{"1999", "2004"}}}, "Finished: " + everyYear, nil, false},
		{"a wrong option inside a word", []schemas.Check{{Kind: "answer", ContainsAll: []string{"North"}, NoneOf: []string{"S"}}}, "Finished: North sells most", nil, true},
		{"on the IQR fence", []schemas.Check{{Kind: "table", Path: "output/fence.csv", NoIQROutliers: []string{"v"}}}, "", []sandbox.Input{onFence}, true},
		{"past the IQR fence", []schemas.Check{{Kind: "table", Path: "output/past.csv", NoIQROutliers: []string{"v"}}}, "", []sandbox.Input{pastFence}, false},
	}
	var cs []Case
	for _, tc := range cases {
		for i := range tc.checks {
			if err := ValidateCheck(&tc.checks[i]); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		cs = append(cs, Case{Checks: tc.checks, Answer: tc.answer, Files: tc.files})
	}
	all, err := Verify(context.Background(), openBackend(t), cs)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range cases {
		ok := true
		var msgs []string
		for _, r := range all[i] {
			ok = ok && r.OK
			msgs = append(msgs, r.Message)
		}
		if ok != tc.ok {
			t.Errorf("%s: ok=%v, want %v (%s)", tc.name, ok, tc.ok, strings.Join(msgs, "; "))
		}
	}
}
