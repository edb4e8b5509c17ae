package checks

import (
	"context"
	"testing"

	"synth/schemas"
)

// TestLabelledValue: with a label, an answer to one number states the
// number the label names, in Chinese or English, whatever count follows
// it; a wrong labelled value, a list after the label, or an answer whose
// label names nothing and whose last asserted number is wrong fail; a
// label naming a column whose name holds a number ("the median of 2021
// votes is 10045") yields to the verb of its clause.
func TestLabelledValue(t *testing.T) {
	b := openBackend(t)
	median := schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: 31.5, AbsTol: 0.01, Label: "median|中位数"}}
	cases := []struct {
		answer string
		ok     bool
	}{
		{"Ozone 列的中位数为 31.5，共 37 个缺失值已填充。", true},
		{"中位数 31.5，共填充 37 个缺失值。", true},
		{"用中位数 31.5 填充了 37 个缺失值，结果保存到 output/air.csv。", true},
		{"The median of Ozone is 31.5. 37 values were filled.", true},
		{"中位数为 40，共 37 个缺失值。", false},
		{"中位数 31.5 或 40，共 37 个。", false},
		{"中位数可能是 40，也可能是 31.5。", false},
		{"共 37 个缺失值已填充。", false},
	}
	var in []Case
	for _, tc := range cases {
		if err := ValidateCheck(&median); err != nil {
			t.Fatal(err)
		}
		in = append(in, Case{Checks: []schemas.Check{median}, Answer: "Finished: " + tc.answer})
	}
	all, err := Verify(context.Background(), b, in)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range cases {
		if r := all[i][0]; r.OK != tc.ok {
			t.Errorf("%q: ok=%v (%s), want %v", tc.answer, r.OK, r.Message, tc.ok)
		}
	}
	votes := schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: 10045, AbsTol: 0.01, Label: "median|中位数"}}
	named := []struct {
		answer string
		ok     bool
	}{
		{"The median of 2021 votes is 10045.", true},
		{"2021 votes 的中位数为 10045。", true},
		{"The median of 2021 votes is 9000.", false},
	}
	in = in[:0]
	for _, tc := range named {
		in = append(in, Case{Checks: []schemas.Check{votes}, Answer: "Finished: " + tc.answer})
	}
	if all, err = Verify(context.Background(), b, in); err != nil {
		t.Fatal(err)
	}
	for i, tc := range named {
		if r := all[i][0]; r.OK != tc.ok {
			t.Errorf("%q: ok=%v (%s), want %v", tc.answer, r.OK, r.Message, tc.ok)
		}
	}
	bad := schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: 1, Label: "median("}}
	if ValidateCheck(&bad) == nil {
		t.Error("a label that is no regular expression is valid")
	}
}
