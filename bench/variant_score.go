package bench

import (
	"fmt"
	"strings"

	"synth/schemas"
)

// VariantScore compares an eval's original half with its variant half,
// over the tasks that have a twin in both.
type VariantScore struct {
	// Bench is the variant split's folder; Results the eval's folder for it.
	Bench   string `json:"bench"`
	Results string `json:"results"`
	// Twins is how many evaluated tasks have a twin; Moved how many of
	// those twins' truth moved (variants.jsonl).
	Twins int `json:"twins"`
	Moved int `json:"moved"`
	// Original is the original tasks' pass rate over the twinned tasks,
	// Variant the twins'; Difference is Variant - Original.
	Original   float64 `json:"original"`
	Variant    float64 `json:"variant"`
	Difference float64 `json:"difference"`
	// VariantMoved is the pass rate over the twins whose truth moved.
	VariantMoved float64              `json:"variant_moved"`
	PerCategory  map[string]PairScore `json:"per_category"`
}

// PairScore is the original and variant pass rates of a set of twinned
// tasks.
type PairScore struct {
	Tasks      int     `json:"tasks"`
	Original   float64 `json:"original"`
	Variant    float64 `json:"variant"`
	Difference float64 `json:"difference"`
}

// CompareVariants scores the twinned tasks of both halves: orig and
// origResults are the benchmark's tasks and results, twins and
// twinResults the variant split's, recs its variants.jsonl. A twin is
// paired with the original task of the same index whose id the record
// names; a twin without such a record is left out (a variant folder is
// as untrusted as the benchmark).
func CompareVariants(orig []schemas.Task, origResults []Result, twins []schemas.Task, twinResults []Result, recs []VariantRecord, opts ScoreOptions) VariantScore {
	want := map[string]VariantRecord{} // twin id -> record
	for _, r := range recs {
		if r.TwinID != "" && r.Skipped == "" {
			want[r.TwinID] = r
		}
	}
	byIndex := map[string]schemas.Task{}
	for _, t := range orig {
		byIndex[t.Index] = t
	}
	var po, pt, moved []schemas.Task
	for _, t := range twins {
		r, ok := want[t.ID]
		o, have := byIndex[t.Index]
		if !ok || !have || r.TaskID != o.ID || r.Index != t.Index {
			continue
		}
		po, pt = append(po, o), append(pt, t)
		if r.Moved {
			moved = append(moved, t)
		}
	}
	so, st := Score(po, origResults, opts), Score(pt, twinResults, opts)
	vs := VariantScore{Twins: len(pt), Moved: len(moved), Original: so.PassRate, Variant: st.PassRate,
		Difference: st.PassRate - so.PassRate, VariantMoved: Score(moved, twinResults, opts).PassRate,
		PerCategory: map[string]PairScore{}}
	for c, g := range so.PerCategory {
		v := st.PerCategory[c]
		vs.PerCategory[c] = PairScore{Tasks: g.Tasks, Original: g.PassRate, Variant: v.PassRate, Difference: v.PassRate - g.PassRate}
	}
	return vs
}

// variantSection is the report's section on the variant split.
func variantSection(v *VariantScore) string {
	var b strings.Builder
	b.WriteString("\n## Variant split\n\n")
	fmt.Fprintf(&b, "Each twin is its task on perturbed inputs, with its own executed truth (`%s`; results in `%s`). %d evaluated tasks have a twin; the truth moved in %d of them.\n\n",
		v.Bench, v.Results, v.Twins, v.Moved)
	b.WriteString("| category | twinned tasks | original | variant | difference |\n|---|---:|---:|---:|---:|\n")
	for _, c := range schemas.Categories {
		if p, ok := v.PerCategory[c]; ok {
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %+.1f pts |\n", CategoryTitle(c), p.Tasks, pct(p.Original), pct(p.Variant), 100*p.Difference)
		}
	}
	fmt.Fprintf(&b, "| all | %d | %s | %s | %+.1f pts |\n", v.Twins, pct(v.Original), pct(v.Variant), 100*v.Difference)
	fmt.Fprintf(&b, "\nPass rate on the twins whose truth moved: %s. A solver that memorised the original answers scores 0 there.\n", pct(v.VariantMoved))
	return b.String()
}
