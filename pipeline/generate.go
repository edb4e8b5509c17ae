package pipeline

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"synth/checks"
	"synth/generators"
	gllm "synth/generators/llm"
	"synth/generators/template"
	"synth/schemas"
)

// generate writes tasks for the collected files into tasks.jsonl. Tasks
// whose checks do not validate are dropped with a log line. A finished
// stage is read back, not redone.
func (r *run) generate(ctx context.Context, fs *fileSet) ([]schemas.Task, error) {
	path := filepath.Join(r.dir, tasksJournal)
	if r.info.done(stageGenerate) {
		tasks, err := ReadAll[schemas.Task](path)
		if err != nil {
			return nil, fmt.Errorf("generate: %w", err)
		}
		r.sum.add("generate", len(fs.order), len(tasks), "tasks (%d categories)", countCategories(tasks))
		return tasks, nil
	}
	tc := r.cfg.Tasks
	gen, err := r.generator(ctx)
	if err != nil {
		return nil, err
	}
	inputs := make([]generators.Input, 0, len(fs.order))
	for _, id := range fs.order {
		inputs = append(inputs, generators.Input{File: fs.byID[id], Path: fs.path[id]})
	}
	made, err := gen.Generate(ctx, inputs)
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	var tasks []schemas.Task
	seen := map[string]bool{}
	for _, t := range made {
		if err := checks.Validate(&t); err != nil {
			r.logf("generate: dropped task %s: %v", t.ID, err)
			continue
		}
		if !seen[t.ID] {
			seen[t.ID] = true
			tasks = append(tasks, t)
		}
	}
	r.sum.add("generate", len(fs.order), len(tasks), "tasks (%d categories)", countCategories(tasks))
	if tc.Validate {
		if tasks, err = r.validateTasks(ctx, tasks, fs); err != nil {
			return nil, err
		}
	}
	// The stage is all or nothing: write the journal whole, then mark it.
	os.Remove(path)
	j, err := OpenJournal(path)
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	for _, t := range tasks {
		if err := j.Append(t); err != nil {
			j.Close()
			return nil, err
		}
	}
	if err := j.Close(); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(r.dir, tasksReportFile), []byte(template.Report(tasks)), 0o644); err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	if err := r.info.markDone(r.dir, stageGenerate); err != nil {
		return nil, err
	}
	return tasks, nil
}

func (r *run) generator(ctx context.Context) (generators.Generator, error) {
	tc := r.cfg.Tasks
	switch tc.Writer {
	case "", "template":
		// Templates whose Python modules the sandbox lacks are skipped, each
		// with a line that says what to install.
		have, err := template.ProbeModules(ctx, pythonOf(r.cfg), template.Modules())
		if err != nil {
			return nil, fmt.Errorf("generate: %w (install Debian's python3, or set sandbox.python)", err)
		}
		_, skipped := template.Available(have)
		for _, s := range skipped {
			if included(s, tc.Templates) {
				r.logf("generate: %s", s)
			}
		}
		return template.New(template.Options{Seed: r.cfg.Seed, Langs: tc.Langs, Include: tc.Templates, PerFile: tc.PerFile, PythonModules: have}), nil
	case "llm":
		c, err := r.client()
		if err != nil {
			return nil, err
		}
		if err := r.preflight(ctx); err != nil {
			return nil, err
		}
		return gllm.New(c, tc.LLM), nil
	}
	return nil, fmt.Errorf("tasks.writer %q is not known (want template or llm)", tc.Writer)
}

func countCategories(tasks []schemas.Task) int {
	c := map[string]bool{}
	for _, t := range tasks {
		c[t.Category] = true
	}
	return len(c)
}

// included reports whether a skip line names a template the config asks
// for (all, when the config names none).
func included(line string, templates []string) bool {
	if len(templates) == 0 {
		return true
	}
	for _, t := range templates {
		if strings.Contains(line, "template "+t) {
			return true
		}
	}
	return false
}

// validateTasks runs every task with a reference in the sandbox: the
// reference must pass its checks, an empty rollout and a mutated reference
// must fail them. Tasks that fail are dropped, counted by reason.
func (r *run) validateTasks(ctx context.Context, tasks []schemas.Task, fs *fileSet) ([]schemas.Task, error) {
	b, err := r.sandbox()
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	v, err := template.Validate(ctx, b, tasks, fs.path, r.concurrency())
	if err != nil {
		return nil, fmt.Errorf("generate: validate: %w", err)
	}
	for _, id := range slices.Sorted(maps.Keys(v.Why)) {
		r.logf("generate: dropped task %s: %s", id, v.Why[id])
	}
	note := "all passed"
	if len(v.Dropped) > 0 {
		note = "dropped: " + countsNote(v.Dropped)
	}
	r.sum.add("validate", len(tasks), len(v.Kept), "tasks proven (reference passes; empty, mutated and adversary rollouts fail); %s", note)
	return v.Kept, nil
}
