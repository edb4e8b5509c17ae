package proof

import (
	"slices"

	"synth/checks"
	"synth/checks/adversary"
	"synth/schemas"
)

// Reasons a task fails its proof.
const (
	DropReferenceError = "reference_error" // a reference step raised or timed out
	DropReferenceFails = "reference_fails" // the reference solution fails a check
	DropAmbiguousTruth = "ambiguous_truth" // the reference's execution does not reproduce a check's expected value
	DropEmptyPasses    = "empty_passes"    // a do-nothing rollout passes every check
	DropMutantPasses   = "mutant_passes"   // a wrong solution passes every check
	DropMissingFile    = "missing_file"    // an input file has no host path
	DropBatteryPasses  = "battery_passes"  // a wrong solution of the battery (PlayBattery) passes every check
	DropStalePasses    = "stale_passes"    // the reference's answer from perturbed inputs passes every check though the truth moved
)

// Proof is how a task fared against each proof: its reference (which must
// pass, and print what it answers), its mutant and every adversary (which
// must each fail at least one check).
type Proof struct {
	ReferenceError    string                           // a reference step that did not run cleanly
	ReferenceFailure  string                           // the first check the reference failed
	ReferenceMismatch string                           // the first answer check the reference's printed output failed
	Mutant            *bool                            // nil: no mutant; else whether one passed
	Battery           []Tried                          // the battery's cases, in the order they were made
	Unmoved           bool                             // the stale rerun moved nothing the checks judge (Battery.Unmoved)
	Adversaries       map[string]*adversary.Result     // by name; Applied false when it had nothing to try
	Checks            map[string][]schemas.CheckResult // results by proof name ("reference", "mutant", adversary names)
}

// Proof is the verdict of o: the reference's first failure and
// mismatch, whether a wrong solution passed every check, and each
// adversary's result.
func (o Outcome) Proof() Proof {
	p := Proof{Adversaries: map[string]*adversary.Result{}, Checks: map[string][]schemas.CheckResult{}}
	p.ReferenceFailure, p.ReferenceMismatch = checks.FirstFailure(o.Reference), checks.FirstFailure(o.Printed)
	if o.Reference != nil {
		p.Checks["reference"] = o.Reference
	}
	for _, rs := range o.Wrong {
		if rs == nil {
			continue
		}
		passed := checks.FirstFailure(rs) == ""
		if p.Mutant == nil {
			p.Checks["mutant"] = rs
		}
		if p.Mutant == nil || passed {
			p.Mutant = &passed
		}
	}
	p.Battery = judged(o.Battery)
	for i := range o.Adversaries {
		r := o.Adversaries[i]
		p.Adversaries[r.Adversary] = &r
		if r.Applied {
			p.Checks[r.Adversary] = r.Checks
		}
	}
	return p
}

// Reason is the drop reason of the proof, empty when the task holds, with a
// message saying why: the reference, the mutant, the empty rollout, the
// battery, then the other adversaries in adversary.All's order. A
// reference whose execution does not reproduce a check's expected value
// (its answer states a number its code never printed, or what it printed
// fails the answer checks) is ambiguous_truth: the value was computed by
// another reader than the Python that solves the task, and the two
// disagree.
func (p Proof) Reason() (reason, why string) {
	switch {
	case p.ReferenceError != "":
		return DropReferenceError, p.ReferenceError
	case checks.Unsupported(p.ReferenceFailure):
		return DropAmbiguousTruth, "the reference's answer is not what its code printed: " + p.ReferenceFailure
	case p.ReferenceFailure != "":
		return DropReferenceFails, p.ReferenceFailure
	case p.ReferenceMismatch != "":
		return DropAmbiguousTruth, "the reference's printed output does not hold the expected value: " + p.ReferenceMismatch
	case p.Mutant != nil && *p.Mutant:
		return DropMutantPasses, "a mutated solution passes every check"
	}
	for _, a := range adversary.All() {
		r := p.Adversaries[a.Name]
		if r == nil || !r.Passed {
			continue
		}
		if a.Name == adversary.Empty {
			return DropEmptyPasses, "an empty rollout passes every check"
		}
		if reason, why := p.batteryReason(); reason != "" {
			return reason, why
		}
		return adversary.Reason(a.Name), "adversary " + a.Name + " (" + a.Doc + ") passes every check"
	}
	return p.batteryReason()
}

// batteryReason is the drop reason of the first battery case that passed
// every check; empty when none did.
func (p Proof) batteryReason() (reason, why string) {
	for _, b := range p.Battery {
		switch {
		case !b.Passed:
		case b.Name == StaleCase:
			return DropStalePasses, "the reference's answer and outputs computed on perturbed inputs (" + BatteryPerturbRules + ") pass every check on the original inputs, though what the checks judge moved"
		case b.Name == StaleAnswerCase:
			return DropStalePasses, "on perturbed inputs (" + BatteryPerturbRules + "), the reference's answer as first given passes every check beside the rerun's outputs, though the answer's truth moved: recompute the expected value from the inputs where the checks run"
		default:
			return DropBatteryPasses, "a wrong solution of the battery (" + b.Name + ": " + BatteryDoc(b.Name) + ") passes every check"
		}
	}
	return "", ""
}

// Tally is how a task's checks fared as a grader: the wrong solutions
// tried on it (its battery and its wrong solutions) and how many they
// rejected, the stale answers among them, and whether the task was
// dropped for one that passed. Tallies of tasks add up (Add) per template.
type Tally struct {
	Tasks         int `json:"tasks"`
	Wrong         int `json:"wrong"`
	Rejected      int `json:"rejected"`
	Stale         int `json:"stale"`
	StaleRejected int `json:"stale_rejected"`
	Unmoved       int `json:"unmoved"`
	Dropped       int `json:"dropped"`
}

// Tally is p's account as a grader; a task whose reference did not hold
// was not a grader of anything and counts nothing.
func (p Proof) Tally() Tally {
	if p.ReferenceError != "" || p.ReferenceFailure != "" || p.ReferenceMismatch != "" {
		return Tally{}
	}
	t := Tally{Tasks: 1}
	if p.Unmoved {
		t.Unmoved = 1
	}
	if p.Mutant != nil {
		t.Wrong++
		if !*p.Mutant {
			t.Rejected++
		}
	}
	for _, b := range p.Battery {
		t.Wrong++
		stale := b.Name == StaleCase || b.Name == StaleAnswerCase
		if stale {
			t.Stale++
		}
		if !b.Passed {
			t.Rejected++
			if stale {
				t.StaleRejected++
			}
		}
	}
	if t.Rejected < t.Wrong {
		t.Dropped = 1
	}
	return t
}

// Add adds o to t.
func (t *Tally) Add(o Tally) {
	t.Tasks += o.Tasks
	t.Wrong += o.Wrong
	t.Rejected += o.Rejected
	t.Stale += o.Stale
	t.StaleRejected += o.StaleRejected
	t.Unmoved += o.Unmoved
	t.Dropped += o.Dropped
}

// judged are the battery cases that prove something: the blank answer and
// the random answers only when the blank answer fails, that is, when the
// checks judge the answer at all.
func judged(bat []Tried) []Tried {
	i := slices.IndexFunc(bat, func(b Tried) bool { return b.Name == BlankAnswer })
	if i < 0 || !bat[i].Passed {
		return bat
	}
	return slices.DeleteFunc(slices.Clone(bat), func(b Tried) bool { return b.Name == BlankAnswer || IsRandom(b.Name) })
}
