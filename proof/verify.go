package proof

import (
	"context"
	"fmt"
	"slices"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// Verify verifies a proof's cases as checks.Verify does, in one
// verification sandbox from b, with less work: the answer checks of a case
// whose answer, messages and observations an earlier case already had are
// not run again but copied (the adversaries that write files share one
// shotgun answer). longAnswer > 0 verifies each answer longer than that in
// a sandbox of its own, for a caller whose long answers (shotguns of
// numbers) would take most of one cell's time together; 0 verifies every
// case in one batch. The results are in cases' order.
func Verify(ctx context.Context, b sandbox.Backend, cases []checks.Case, longAnswer int) ([][]schemas.CheckResult, error) {
	run := make([]checks.Case, len(cases))
	origin := make([]int, len(cases)) // the case whose answer checks stand for this one's, or -1
	first := map[string]int{}
	for i, c := range cases {
		run[i], origin[i] = c, -1
		if len(c.Checks) == 0 || c.Transcript {
			continue
		}
		key := fmt.Sprint(c.Answer, "\x00", c.Messages, "\x00", c.Observations == nil, c.Observations)
		if j, ok := first[key]; ok {
			run[i].Checks = slices.DeleteFunc(slices.Clone(c.Checks), isAnswer)
			origin[i] = j
			continue
		}
		first[key] = i
	}
	var short, long []int
	for i, c := range run {
		if longAnswer > 0 && len(c.Answer) > longAnswer && len(c.Checks) > 0 {
			long = append(long, i)
		} else {
			short = append(short, i)
		}
	}
	rs := make([][]schemas.CheckResult, len(cases))
	for _, group := range append([][]int{short}, chunks(long)...) {
		batch := make([]checks.Case, len(group))
		for k, i := range group {
			batch[k] = run[i]
		}
		out, err := checks.Verify(ctx, b, batch)
		if err != nil {
			return nil, err
		}
		for k, i := range group {
			rs[i] = out[k]
		}
	}
	for i, j := range origin {
		if j < 0 {
			continue
		}
		own, full := rs[i], make([]schemas.CheckResult, 0, len(cases[i].Checks))
		for k, c := range cases[i].Checks {
			if isAnswer(c) {
				full = append(full, rs[j][k])
			} else {
				full, own = append(full, own[0]), own[1:]
			}
		}
		rs[i] = full
	}
	return rs, nil
}

func isAnswer(c schemas.Check) bool { return c.Kind == schemas.CheckAnswer }

// chunks puts each index in a batch of its own.
func chunks(is []int) [][]int {
	out := make([][]int, len(is))
	for k, i := range is {
		out[k] = []int{i}
	}
	return out
}
