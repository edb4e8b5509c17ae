package checks

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"synth/schemas"
)

// TestAnswerSupportedByOutput: when a case carries what the rollout's code
// printed, the number its answer states must be among the printed ones, up
// to rounding and formatting. The rule only adds failures: printing every
// number does not pass a wrong answer, and a case without observations is
// judged on its answer alone.
func TestAnswerSupportedByOutput(t *testing.T) {
	b := openBackend(t)
	num := func(v, tol float64) schemas.Check {
		return schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: v, AbsTol: tol}}
	}
	every := make([]string, 0, 400)
	for i := range 400 {
		every = append(every, strconv.Itoa(i))
	}
	cases := []struct {
		name    string
		check   schemas.Check
		answer  string
		printed []string
		ok      bool
		unsupp  bool // the failure is the rule's
	}{
		{"printed 10, answers 4", num(4, 0), "The word occurs 4 times.", []string{"Counter({'the': 10})\n"}, false, true},
		{"printed what it answers", num(4, 0), "The word occurs 4 times.", []string{"(150, 5)\n", "4\n"}, true, false},
		{"rounded", num(5.84, 0.01), "The mean is 5.84 (n = 150).", []string{"5.843333333333334\n"}, true, false},
		{"rounded to an integer", num(6, 0.5), "About 6 per row.", []string{"5.8433\n"}, true, false},
		{"thousands separators", num(1234567, 0), "The total is 1,234,567.", []string{"1234567\n"}, true, false},
		{"scientific printing", num(1234567.89, 1), "The total is 1,234,567.89.", []string{"total    1.234568e+06\n"}, true, false},
		{"percent of a fraction", num(0.125, 0.001), "The share is 12.5%.", []string{"0.125\n"}, true, false},
		{"fraction of a percent", num(0.125, 0.001), "The share is 0.125.", []string{"share: 12.5%\n"}, true, false},
		{"scale word", num(1234567, 1), "The total is 1,234,567 (1.23 million).", []string{"1234567\n"}, true, false},
		{"next integer is not a rounding", num(736, 0), "The page has 736 links.", []string{"734\n"}, false, true},
		{"a stray integer is not a source of digits", num(0.6972, 0.01), "The linear model reaches R² = 0.6972.", []string{"(3201, 16)\n", "0.6954599747694881\n", "R2 0.6955\n", "1\n"}, false, true},
		{"fewer digits printed than stated", num(5.84, 0.01), "The mean is 5.84.", []string{"mean 5.8\n"}, false, true},
		{"the same value with more zeros", num(12, 0), "There are 12.0 on average.", []string{"12\n"}, true, false},
		{"no code ran", num(4, 0), "It occurs 4 times.", []string{}, false, true},
		{"every number printed, wrong answer", num(10, 0), "It occurs 4 times.", every, false, false},
		{"every number printed, right answer", num(10, 0), "It occurs 10 times.", every, true, false},
		{"no observations: answer alone", num(736, 0), "The page has 736 links.", nil, true, false},
		{"two numbers asked", schemas.Check{Kind: schemas.CheckAnswer, ContainsAll: []string{"12", "30"}}, "12 in March and 30 in May.", []string{"March 12\nMay 31\n"}, false, true},
		{"words are not held", schemas.Check{Kind: schemas.CheckAnswer, ContainsAny: []string{"March"}}, "March, with 12 sales.", []string{"May\n"}, true, false},
		{"chinese", num(19, 0), "共有 19 行。", []string{"19\n"}, true, false},
		{"huge exponents printed", num(4, 0), "It occurs 4 times.", []string{"1e999999 2.5e-400000 -1E+308888\n4\n"}, true, false},
		{"a version is not a number", schemas.Check{Kind: schemas.CheckAnswer, ContainsAll: []string{"[0.11.0] - 2024-03-07", "Added", "[0.10.4] - 2024-02-10"}},
			"The headings are: [0.11.0] - 2024-03-07; Added; [0.10.4] - 2024-02-10.", []string{"['[0.11.0] - 2024-03-07', 'Added', '[0.10.4] - 2024-02-10']\n"}, true, false},
		{"an identifier's number is not stated", num(4, 0), "Top of the 4 groups by mean litres: VAN-1 (60.523).", []string{"4 groups\n", "VAN 60.523\n"}, true, false},
		{"a number inside an identifier", num(1, 0), "There is 1 missing value.", []string{"Traceback (most recent call last):\n  File \"<cell-1>\", line 2, in <module>\nKeyError: 'x'\n", "run_1 x1 <cell-1>\n"}, false, true},
		{"a traceback's numbers", num(7, 0), "It occurs 7 times.", []string{"Traceback (most recent call last):\n  File \"<cell-2>\", line 7, in <module>\n    s = 7 * n\nValueError: 7\n"}, false, true},
		{"a date's parts", num(12, 0), "The busiest day had 12 orders.", []string{"2019-03-12  4\n12/03/2019 5\n10:12 6\n"}, false, true},
		{"a month is two numbers", num(10, 0), "October is month 10.", []string{"2023-10    5.2\n"}, true, false},
		{"no rounding to a power of ten", num(123000, 1), "The total is 123000.", []string{"123456\n"}, false, true},
		{"a round integer printed", num(123000, 1), "The total is 123,000.", []string{"123000\n"}, true, false},
		{"versions and dates are names", schemas.Check{Kind: schemas.CheckAnswer, ContainsAll: []string{"[0.11.0] - 2024-03-07", "[0.10.4] - 2024-02-10"}},
			"The headings are: [0.11.0] - 2024-03-07; [0.10.4] - 2024-02-10.", []string{"['[0.11.0] - 2024-03-07', '[0.10.4] - 2024-02-10']\n"}, true, false},
	}
	var in []Case
	for _, tc := range cases {
		if err := ValidateCheck(&tc.check); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		in = append(in, Case{Checks: []schemas.Check{tc.check}, Answer: "Finished: " + tc.answer, Observations: tc.printed})
	}
	all, err := Verify(context.Background(), b, in)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := all[i][0]
			if r.OK != tc.ok || Unsupported(r.Message) != tc.unsupp {
				t.Fatalf("ok=%v %q; want ok=%v, unsupported=%v", r.OK, r.Message, tc.ok, tc.unsupp)
			}
		})
	}
}

// TestBoundObservations: observations reach the verifier bounded, a long
// cell keeping its head and tail, the last cells kept first; nil stays nil
// (the rule is off) and no cut splits a rune.
func TestBoundObservations(t *testing.T) {
	if boundObservations(nil) != nil {
		t.Fatal("nil observations became known")
	}
	if got := boundObservations([]string{}); got == nil {
		t.Fatal("known empty observations became unknown")
	}
	long := "HEAD" + strings.Repeat("é", maxCellObservation) + "TAIL"
	got := boundObservations([]string{long})[0]
	if len(got) > maxCellObservation+16 || !strings.HasPrefix(got, "HEAD") || !strings.HasSuffix(got, "TAIL") || !strings.Contains(got, "…cut…") {
		t.Fatalf("cell cut to %d bytes: %q…%q", len(got), got[:10], got[len(got)-10:])
	}
	if !isUTF8(got) {
		t.Fatal("the cut split a rune")
	}
	var many []string
	for i := range 2 * maxObservations / maxCellObservation {
		many = append(many, strings.Repeat(strconv.Itoa(i%10), maxCellObservation-1))
	}
	b := boundObservations(many)
	total := 0
	for _, o := range b {
		total += len(o)
	}
	if total > maxObservations || b[len(b)-1] == "" || b[0] != "" {
		t.Fatalf("%d bytes kept; last cell kept %v, first dropped %v", total, b[len(b)-1] != "", b[0] == "")
	}
}

func isUTF8(s string) bool { return utf8.ValidString(s) }
