package sources

import (
	"context"
	"strings"
	"testing"

	"synth/schemas"
)

func TestPlanAndWritePlan(t *testing.T) {
	src := &listSource{items(t)[:3]}
	plan, err := Plan(context.Background(), src) // not a Planner: counted by collecting
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 3 || plan[0].Size != 12 || plan[1].Source.License != "MIT" {
		t.Fatalf("plan = %+v", plan)
	}
	plan = append(plan, Planned{Name: "paper.pdf", Source: schemas.Source{Kind: "arxiv", Ref: "2401.00001v1"}})
	var b strings.Builder
	if err := WritePlan(&b, plan); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"NAME", "a.csv", "CC0-1.0", "local:a.csv", "paper.pdf", "?", "4 files", "(+1 of unknown size)", "unknown: 1", "GPL-2.0: 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
	if HumanSize(3<<30) != "3.0 GiB" || HumanSize(100) != "100 B" {
		t.Errorf("HumanSize: %s %s", HumanSize(3<<30), HumanSize(100))
	}
}
