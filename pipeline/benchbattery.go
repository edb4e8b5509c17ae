package pipeline

import (
	"context"
	"fmt"
	"strings"

	"golang.org/x/sync/errgroup"

	"synth/generators/template"
	"synth/schemas"
)

// batteryVerdict is a task's battery proof: the drop reason, empty when
// the task holds, and why.
type batteryVerdict struct{ reason, why string }

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
			reason, why, err := template.ProveBattery(gctx, b, t, fs.path)
			if err != nil {
				return fmt.Errorf("battery: %w", err)
			}
			out[i] = batteryVerdict{reason, why}
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
