package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sync/errgroup"

	"synth/dataset"
	"synth/generators/template"
	"synth/proof"
	"synth/rundir"
	"synth/schemas"
)

// batteryVerdict is a task's battery proof: the drop reason, empty when
// the task holds, and why; tally is its account as a grader.
type batteryVerdict struct {
	reason, why string
	tally       proof.Tally
}

// benchBattery plays the battery of wrong solutions on each template task
// of tasks, as synth generate --validate does (template.ProveBattery):
// wrong values in its output tables, its answer's numbers moved, its
// answer and outputs from perturbed inputs, the first answer beside them;
// a task whose checks accept one, or whose truth no perturbation moves,
// gets a drop reason. Tasks the LLM writer wrote were proven against the
// battery as they were written, and are not played again. The result is by
// task id; the error is for a sandbox that could not run, or ctx.
func (r *builder) benchBattery(ctx context.Context, tasks []*schemas.Task, fs *fileSet) (map[string]batteryVerdict, error) {
	b, err := r.sandbox()
	if err != nil {
		return nil, err
	}
	out := make([]batteryVerdict, len(tasks))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, r.cfg.InFlight()))
	for i, t := range tasks {
		if !strings.HasPrefix(t.Generator, "template:") || t.Reference == nil {
			continue
		}
		g.Go(func() error {
			reason, why, tally, err := template.ProveBattery(gctx, b, t, fs.path)
			if err != nil {
				return fmt.Errorf("battery: %w", err)
			}
			out[i] = batteryVerdict{reason, why, tally}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	verdicts := map[string]batteryVerdict{}
	for i, t := range tasks {
		verdicts[t.ID] = out[i]
	}
	return verdicts, nil
}

// graderOf is the per-template account of the battery verdicts of tasks:
// how many wrong solutions each template's checks met and rejected.
func graderOf(tasks []*schemas.Task, verdicts map[string]batteryVerdict) []dataset.GraderRow {
	g := map[string]proof.Tally{}
	for _, t := range tasks {
		v := verdicts[t.ID]
		if v.tally.Tasks == 0 {
			continue
		}
		name := template.TemplateName(t)
		tl := g[name]
		tl.Add(v.tally)
		g[name] = tl
	}
	return graderRows(g)
}

// reportGrader puts the grader figures rows into the run's tasks.report.md,
// before the files without a task, when the report has none yet (the
// generate stage writes them when it proved its tasks itself).
func reportGrader(dir string, rows []dataset.GraderRow) error {
	path := filepath.Join(dir, rundir.TasksReport)
	old, err := os.ReadFile(path)
	if err != nil || len(rows) == 0 || strings.Contains(string(old), graderHeading) {
		return nil // no report (a benchmark-only run) or figures already there
	}
	head, tail, _ := strings.Cut(string(old), template.UntaskedHeading)
	report := head + dataset.GraderMarkdown(rows) + template.UntaskedHeading + tail
	if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	return nil
}

// graderHeading starts the grader section of tasks.report.md.
const graderHeading = "## Grader accuracy\n"
