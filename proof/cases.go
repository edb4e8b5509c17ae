package proof

import (
	"context"
	"os"

	"synth/checks"
	"synth/checks/adversary"
	"synth/sandbox"
	"synth/schemas"
)

// Set is what a task's proof verifies besides its adversaries.
type Set struct {
	// Reference is the reference's case, nil when it is not verified (it
	// did not finish). Its Observations, when set, hold its answer to
	// what its code printed (checks.Case.Observations).
	Reference *checks.Case
	// Printed is what the reference's code printed; when it is not nil,
	// the task's answer checks are run on it as a transcript, and it must
	// hold every expected value.
	Printed []string
	// Wrong are the wrong solutions' cases, each of which the checks must
	// reject; a nil entry was not played. They prove the checks alone: their
	// Observations are dropped.
	Wrong []*checks.Case
	// Battery are the generic wrong solutions made from the reference
	// (PlayBattery), each of which the checks must reject; their
	// Observations are dropped too.
	Battery []Wrong
	// Adversaries are tried in this order; nil: adversary.All().
	Adversaries []adversary.Adversary
	// LongAnswer, when above 0, verifies each answer longer than it in a
	// sandbox of its own (Verify's longAnswer); 0: one batch.
	LongAnswer int
}

// Cases are a task's proof cases, in the order Outcome reads their
// results: the reference, its printed output, the wrong solutions, the
// adversaries; a part not verified has no case.
type Cases struct {
	List    []checks.Case
	ref     int   // index in List, or -1
	printed int   // index in List, or -1
	wrong   []int // index in List of each wrong solution, or -1
	battery []string
	batAt   []int // index in List of each battery case
	advs    []adversary.Result
	advAt   []int // index in List of each adversary that applied, or -1
}

// Assemble builds t's proof cases from set and makes every adversary's
// rollout; inputs are the task's files, and an adversary's files are
// written under dir. The error is for an adversary that could not be
// built.
func Assemble(t *schemas.Task, inputs []sandbox.Input, dir string, set Set) (Cases, error) {
	cs := Cases{ref: -1, printed: -1}
	if set.Reference != nil {
		cs.ref = len(cs.List)
		cs.List = append(cs.List, *set.Reference)
		if set.Printed != nil {
			// The transcript case carries the inputs too: checks.Verify
			// wants every case with checks to have a folder.
			cs.printed = len(cs.List)
			cs.List = append(cs.List, checks.Case{Checks: checks.AnswerChecks(t.Checks), Answer: Played{Printed: set.Printed}.Output(),
				Transcript: true, Files: CaseInputs(inputs)})
		}
	}
	for _, w := range set.Wrong {
		if w == nil {
			cs.wrong = append(cs.wrong, -1)
			continue
		}
		c := *w
		c.Observations = nil
		cs.wrong = append(cs.wrong, len(cs.List))
		cs.List = append(cs.List, c)
	}
	for _, w := range set.Battery {
		c := w.Case
		c.Observations = nil
		cs.battery = append(cs.battery, w.Name)
		cs.batAt = append(cs.batAt, len(cs.List))
		cs.List = append(cs.List, c)
	}
	advs := set.Adversaries
	if advs == nil {
		advs = adversary.All()
	}
	res, advCases, err := adversary.CasesOf(advs, t, inputs, dir)
	if err != nil {
		return cs, err
	}
	cs.advs = res
	for i, r := range res {
		if !r.Applied {
			cs.advAt = append(cs.advAt, -1)
			continue
		}
		cs.advAt = append(cs.advAt, len(cs.List))
		cs.List = append(cs.List, advCases[i])
	}
	return cs, nil
}

// Tried is how one battery case fared: Passed when it had checks and
// passed every one, which a wrong solution must not.
type Tried struct {
	Name   string
	Checks []schemas.CheckResult
	Passed bool
}

// Outcome is how each part of a proof fared.
type Outcome struct {
	Reference []schemas.CheckResult   // nil when the reference was not verified
	Printed   []schemas.CheckResult   // the answer checks on what the reference printed; nil when not run
	Wrong     [][]schemas.CheckResult // by Set.Wrong's order; nil when not played
	Battery   []Tried                 // by Set.Battery's order
	// Adversaries are in Set.Adversaries' order; one passed when it has
	// checks and every one passed.
	Adversaries []adversary.Result
}

// Outcome reads rs, the verification of cs.List.
func (cs Cases) Outcome(rs [][]schemas.CheckResult) Outcome {
	at := func(i int) []schemas.CheckResult {
		if i < 0 {
			return nil
		}
		return rs[i]
	}
	o := Outcome{Reference: at(cs.ref), Printed: at(cs.printed)}
	for _, i := range cs.wrong {
		o.Wrong = append(o.Wrong, at(i))
	}
	for k, i := range cs.batAt {
		o.Battery = append(o.Battery, Tried{Name: cs.battery[k], Checks: rs[i], Passed: checks.FirstFailure(rs[i]) == "" && len(rs[i]) > 0})
	}
	o.Adversaries = append([]adversary.Result(nil), cs.advs...)
	advRs := make([][]schemas.CheckResult, len(cs.advAt))
	for k, i := range cs.advAt {
		advRs[k] = at(i)
	}
	adversary.Score(o.Adversaries, advRs)
	return o
}

// Prove assembles t's proof cases from set, with the adversaries' files in
// a temporary folder it removes, verifies them in one batch (Verify) and
// reads the outcome. The error is for an adversary that could not be
// built, a sandbox that could not verify, or ctx.
func Prove(ctx context.Context, b sandbox.Backend, t *schemas.Task, inputs []sandbox.Input, set Set) (Outcome, error) {
	dir, err := os.MkdirTemp("", "synth-adversary-")
	if err != nil {
		return Outcome{}, err
	}
	defer os.RemoveAll(dir)
	cs, err := Assemble(t, inputs, dir, set)
	if err != nil {
		return Outcome{}, err
	}
	rs, err := Verify(ctx, b, cs.List, set.LongAnswer)
	if err != nil {
		return Outcome{}, err
	}
	return cs.Outcome(rs), nil
}
