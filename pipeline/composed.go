package pipeline

import (
	"context"
	"fmt"
	"strings"

	"golang.org/x/sync/errgroup"

	"synth/generators/template"
	"synth/schemas"
)

// proveComposed runs the skip-step proof of every composed task
// (template.ProveSkips) and drops those whose checks accept a solution
// that leaves out a step of the chain, or does only its first: such a
// task is not emitted, and tasks.report.md says why. The languages of one
// task share their steps and outputs, so each chain is proven once and
// its verdict holds for all of them. Tasks that are not composed pass
// through. A build that validates its tasks (tasks.validate) proves the
// skips there instead.
func (m *taskMaker) proveComposed(ctx context.Context, tasks []schemas.Task, fs *fileSet) ([]schemas.Task, error) {
	byChain := map[string][]int{}
	var keys []string
	for i := range tasks {
		if tasks[i].Steps <= 0 || tasks[i].Reference == nil {
			continue
		}
		k := chainKey(&tasks[i])
		if byChain[k] == nil {
			keys = append(keys, k)
		}
		byChain[k] = append(byChain[k], i)
	}
	if len(keys) == 0 {
		return tasks, nil
	}
	b, err := m.sandbox()
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	passing := make([][]string, len(keys))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, m.cfg.InFlight()))
	for n, k := range keys {
		g.Go(func() error {
			p, err := template.ProveSkips(gctx, b, &tasks[byChain[k][0]], fs.path)
			passing[n] = p
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("generate: composed tasks: %w", err)
	}
	drop := map[int]bool{}
	if m.dropped == nil {
		m.dropped = map[string]string{}
	}
	for n, k := range keys {
		if len(passing[n]) == 0 {
			continue
		}
		for _, i := range byChain[k] {
			drop[i] = true
			m.dropped[tasks[i].ID] = template.DropSkipPasses + ": the checks accept " + strings.Join(passing[n], ", ") + " (a solution that leaves out a step of the chain)"
		}
	}
	kept := make([]schemas.Task, 0, len(tasks))
	for i, t := range tasks {
		if !drop[i] {
			kept = append(kept, t)
		}
	}
	composed := 0
	for _, ix := range byChain {
		composed += len(ix)
	}
	m.logf("generate: %d composed tasks, %d dropped: a solution skipping one of their steps passed their checks", composed, len(drop))
	return kept, nil
}

// chainKey is what the languages of a composed task share: its template,
// its input files and its reference's code.
func chainKey(t *schemas.Task) string {
	var b strings.Builder
	b.WriteString(t.Generator)
	for _, f := range t.Files {
		b.WriteString("\x00" + f.ID)
	}
	for _, s := range t.Reference.Steps {
		b.WriteString("\x00" + s.Code)
	}
	return b.String()
}
