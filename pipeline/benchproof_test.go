package pipeline

import (
	"testing"

	"synth/checks/adversary"
	"synth/generators/template"
	"synth/schemas"
)

// TestBenchProofDrops: the records benchmark validation journals become the
// drop reason each guard is for. Removing a field from benchProof (the
// mutant, an adversary, the empty rollout) lets its case through.
func TestBenchProofDrops(t *testing.T) {
	rec := func(passed bool) *schemas.Trajectory {
		return &schemas.Trajectory{Verdict: &schemas.Verdict{Passed: passed, Checks: []schemas.CheckResult{{Kind: "table", OK: passed, Message: "m"}}}}
	}
	var adv []job
	for _, name := range adversary.Names() {
		adv = append(adv, job{id: "adv-" + name, teacher: adversaryProof{name: name}})
	}
	done := func(passing string) map[string]*schemas.Trajectory {
		d := map[string]*schemas.Trajectory{}
		for _, name := range adversary.Names() {
			d["adv-"+name] = rec(name == passing)
		}
		return d
	}
	cases := []struct {
		name     string
		ref, mut *schemas.Trajectory
		passing  string // the adversary whose record passes
		want     string
	}{
		{"holds", rec(true), rec(false), "", ""},
		{"holds without a mutant", rec(true), nil, "", ""},
		{"reference fails", rec(false), rec(false), "", template.DropReferenceFails},
		{"reference has no verdict", &schemas.Trajectory{Error: "sandbox died"}, nil, "", template.DropReferenceFails},
		{"mutant passes", rec(true), rec(true), "", template.DropMutantPasses},
		{"empty passes", rec(true), rec(false), adversary.Empty, template.DropEmptyPasses},
		{"shotgun passes", rec(true), nil, "shotgun", adversary.Reason("shotgun")},
		{"forged code passes", rec(true), rec(false), "forged_code", adversary.Reason("forged_code")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, why := benchProof(tc.ref, tc.mut, adv, done(tc.passing)).Reason()
			if got != tc.want {
				t.Fatalf("reason %q (%s), want %q", got, why, tc.want)
			}
		})
	}
}
