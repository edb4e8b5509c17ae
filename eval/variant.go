package eval

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"synth/bench"
)

// variants evaluates the benchmark's variant split with the same teacher
// and settings, into the results folder's bench.VariantDir, and compares
// it with the original half's results. It returns nil when the benchmark
// has no variant split, SkipVariants is set, none of the evaluated tasks
// has a twin, or its variants.jsonl does not load (said in the log).
func (r *evalRun) variants(ctx context.Context, results []bench.Result) (*bench.VariantScore, error) {
	if r.cfg.SkipVariants {
		return nil, nil
	}
	recs, ok, err := bench.Variants(r.cfg.Bench)
	if err != nil {
		fmt.Fprintf(r.log, "eval: the variant split left out: %v\n", err)
		return nil, nil
	}
	if !ok {
		return nil, nil
	}
	var twinned []string
	for _, t := range r.tasks {
		if slices.ContainsFunc(recs, func(v bench.VariantRecord) bool { return v.Index == t.Index && v.TaskID == t.ID && v.TwinID != "" }) {
			twinned = append(twinned, t.Index)
		}
	}
	if len(twinned) == 0 {
		return nil, nil
	}
	cfg := r.cfg
	cfg.Bench, cfg.Tasks, cfg.SkipVariants = filepath.Join(r.cfg.Bench, bench.VariantDir), twinned, true
	cfg.Judge = JudgeConfig{} // the judge reads the original half only
	opts := r.opts
	opts.Out = filepath.Join(r.opts.Out, bench.VariantDir)
	fmt.Fprintf(r.log, "eval: the variant split, %d twinned task(s), into %s\n", len(twinned), opts.Out)
	if opts.Backend == nil {
		opts.Backend = r.backend
	}
	res, err := Evaluate(ctx, cfg, opts)
	if err != nil {
		return nil, fmt.Errorf("variant split: %w", err)
	}
	twins, err := bench.Load(cfg.Bench)
	if err != nil {
		return nil, err
	}
	folder, err := LoadFolder(opts.Out)
	if err != nil {
		return nil, err
	}
	score := bench.CompareVariants(r.tasks, results, twins, folder.Results, recs, bench.ScoreOptions{Samples: r.samples(), TurnCap: r.turnCap()})
	score.Bench, score.Results = cfg.Bench, res.Out
	return &score, nil
}
