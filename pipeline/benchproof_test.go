package pipeline

import (
	"path/filepath"
	"testing"

	"synth/checks/adversary"
	"synth/proof"
	"synth/rundir"
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
	// done journals the adversaries' records and indexes the journal, as
	// runJobs leaves them.
	done := func(t *testing.T, passing string) *trajIndex {
		path := filepath.Join(t.TempDir(), rundir.BenchValidation)
		j, err := rundir.OpenJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range adversary.Names() {
			r := rec(name == passing)
			r.ID = "adv-" + name
			if err := j.Append(r); err != nil {
				t.Fatal(err)
			}
		}
		j.Close()
		x, err := indexJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(x.Close)
		return x
	}
	cases := []struct {
		name     string
		ref, mut *schemas.Trajectory
		passing  string // the adversary whose record passes
		want     string
	}{
		{"holds", rec(true), rec(false), "", ""},
		{"holds without a mutant", rec(true), nil, "", ""},
		{"reference fails", rec(false), rec(false), "", proof.DropReferenceFails},
		{"reference has no verdict", &schemas.Trajectory{Error: "sandbox died"}, nil, "", proof.DropReferenceFails},
		{"mutant passes", rec(true), rec(true), "", proof.DropMutantPasses},
		{"empty passes", rec(true), rec(false), adversary.Empty, proof.DropEmptyPasses},
		{"shotgun passes", rec(true), nil, "shotgun", adversary.Reason("shotgun")},
		{"forged code passes", rec(true), rec(false), "forged_code", adversary.Reason("forged_code")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := benchProof(tc.ref, tc.mut, adv, done(t, tc.passing))
			if err != nil {
				t.Fatal(err)
			}
			got, why := p.Reason()
			if got != tc.want {
				t.Fatalf("reason %q (%s), want %q", got, why, tc.want)
			}
		})
	}
}
