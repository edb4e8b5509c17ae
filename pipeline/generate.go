package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"synth/checks"
	"synth/dataset"
	"synth/generators"
	"synth/generators/template"
	"synth/generators/writer"
	"synth/proof"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

// generate writes tasks for the collected files into tasks.jsonl and
// returns them slim (see readTasks), written now or read back. Tasks
// whose checks do not validate are dropped with a log line. The LLM writer
// proves each of its tasks in the sandbox as it writes it; its counts go to
// run.json and the summary. A finished stage is read back, not redone; one
// that lost drafts to failed requests is not finished, so the next run
// redoes them (the response cache answers the rest).
func (m *taskMaker) generate(ctx context.Context, fs *fileSet) ([]slimTask, error) {
	path := filepath.Join(m.dir, rundir.Tasks)
	if m.info.Done(runinfo.StageGenerate) {
		tasks, _, _, err := m.tasks.read(path, nil)
		if err != nil {
			return nil, fmt.Errorf("generate: %w", err)
		}
		if m.info.Writer != nil {
			m.sum.addWriter(m.info.Writer)
		}
		m.sum.add("generate", len(fs.order), len(tasks), "tasks (%d categories)%s", countCategories(len(tasks), func(i int) string { return tasks[i].meta.Category }), untaskedNote(m.info.Untasked))
		if err := m.adviseNewTemplates(ctx, fs); err != nil {
			return nil, err
		}
		return tasks, nil
	}
	tc := m.cfg.Tasks
	gen, proof, err := m.generator(ctx)
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
	complete := true
	if w, ok := gen.(*writer.Generator); ok {
		if err := m.recordWriter(w, proof); err != nil {
			return nil, err
		}
		complete = w.Stats().Failed == 0
	}
	var tasks []schemas.Task
	seen := map[string]bool{}
	for _, t := range made {
		if err := checks.Validate(&t); err != nil {
			m.logf("generate: dropped task %s: %v", t.ID, err)
			continue
		}
		if !seen[t.ID] {
			seen[t.ID] = true
			tasks = append(tasks, t)
		}
	}
	valid := slices.Clone(tasks)
	// The skip-step proof of composed tasks belongs to this stage (its
	// time and CPU too), and its line counts the tasks written, as a
	// resumed run reads them; tasks.validate proves the skips below.
	proved := ""
	if !tc.Validate {
		before := len(tasks)
		if tasks, err = m.proveComposed(ctx, tasks, fs); err != nil {
			return nil, err
		}
		if n := before - len(tasks); n > 0 {
			proved = fmt.Sprintf("; %d composed tasks dropped by their skip-step proof (tasks.report.md)", n)
		}
	}
	m.sum.add("generate", len(fs.order), len(tasks), "tasks (%d categories)%s", countCategories(len(tasks), func(i int) string { return tasks[i].Category }), proved)
	line := len(m.sum.Stages) - 1 // its note ends with the files that got no task
	if tc.Validate {
		if tasks, err = m.validateTasks(ctx, tasks, fs); err != nil {
			return nil, err
		}
	}
	untasked := untaskedFiles(fs, gen, made, valid, tasks)
	m.info.Untasked = untaskedRecords(untasked)
	m.sum.Stages[line].Note += untaskedNote(m.info.Untasked)
	// The stage is all or nothing: write the journal whole, then mark it.
	os.Remove(path)
	j, err := rundir.OpenJournal(path)
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
	// The proof's sections go before the files without a task, the last
	// section, which a later stage may rewrite (rewriteUntasked).
	report := template.Report(tasks, append(untasked, notCollected(m.info.NotCollected)...))
	head, tail, _ := strings.Cut(report, template.UntaskedHeading)
	report = head + dataset.GraderMarkdown(m.info.Grader) + droppedMarkdown(m.dropped) + template.UntaskedHeading + tail
	if err := os.WriteFile(filepath.Join(m.dir, rundir.TasksReport), []byte(report), 0o644); err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	if !complete {
		m.logf("generate: %d drafts were lost to failed requests or sandbox errors; run the same command again to redo them", m.info.Writer.Failed)
	} else if err := m.info.MarkDone(m.dir, runinfo.StageGenerate); err != nil {
		return nil, err
	}
	// The later stages hold the tasks slim, as a resumed run reads them.
	slim, _, _, err := m.tasks.read(path, nil)
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	return slim, nil
}

// generator is the configured task writer and, for the LLM writer, what
// its proofs run.
func (m *taskMaker) generator(ctx context.Context) (gen generators.Generator, proof string, err error) {
	tc := m.cfg.Tasks
	switch tc.Writer {
	case "", "template":
		// Templates whose Python modules the sandbox lacks are skipped, each
		// with a line that says what to install.
		have, err := template.ProbeModules(ctx, pythonOf(m.cfg), template.Modules())
		if err != nil {
			return nil, "", fmt.Errorf("generate: %w (install Debian's python3, or set sandbox.python)", err)
		}
		ok, skipped := template.Available(have)
		for _, s := range skipped {
			if included(s, tc.Templates) {
				m.logf("generate: %s", s)
			}
		}
		m.info.Templates = templateIDs(ok)
		filesOnly := !fileless(m.cfg)
		if filesOnly {
			m.logf("generate: no tasks that read no file (math, programs, web pages): the sources do not include the built-in corpus; --fileless (tasks.fileless: true) writes them too")
		}
		return template.New(template.Options{Seed: m.cfg.Seed, Langs: tc.Langs, Include: tc.Templates, PerFile: tc.PerFile, PythonModules: have, FilesOnly: filesOnly,
			Composed: template.Composed{Share: tc.Composed.Share, Depth: tc.Composed.Depth}}), "", nil
	case "llm":
		c, err := m.llm.client(m.work)
		if err != nil {
			return nil, "", err
		}
		if err := m.llm.Preflight(ctx); err != nil {
			return nil, "", err
		}
		b, err := m.sandbox()
		if err != nil {
			return nil, "", fmt.Errorf("generate: %w", err)
		}
		opts := tc.LLM
		if opts.JSONMode {
			model := cmp.Or(opts.Model, c.Model())
			ok, err := writer.ProbeJSON(ctx, m.cfg.LLM, model)
			if err != nil {
				return nil, "", fmt.Errorf("generate: %w", err)
			}
			if !ok {
				m.logf("generate: the endpoint for %s refuses response_format (JSON mode); the writer goes on without it", model)
				opts.JSONMode = false
			}
		}
		w := writer.New(c, opts)
		p := &writer.Prover{Backend: b}
		w.SetProver(p)
		return w, p.Describe(), nil
	}
	return nil, "", fmt.Errorf("tasks.writer %q is not known (want template or llm)", tc.Writer)
}

// countCategories counts the distinct categories of n tasks, task i's
// being category(i).
func countCategories(n int, category func(i int) string) int {
	c := map[string]bool{}
	for i := range n {
		c[category(i)] = true
	}
	return len(c)
}

// validateTasks runs every task with a reference in the sandbox: the
// reference must pass its checks, an empty rollout and a mutated reference
// (where the template defines one) must fail them. Tasks that fail are
// dropped, counted by reason. Tasks without a reference cannot be proven
// this way: they are kept, and the summary says how many.
func (m *taskMaker) validateTasks(ctx context.Context, tasks []schemas.Task, fs *fileSet) ([]schemas.Task, error) {
	b, err := m.sandbox()
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	v, err := template.Validate(ctx, b, tasks, fs.path, m.cfg.InFlight())
	if err != nil {
		return nil, fmt.Errorf("generate: validate: %w", err)
	}
	if m.info != nil {
		m.info.Grader = graderRows(v.Grader)
	}
	m.dropped = v.Why
	for _, id := range slices.Sorted(maps.Keys(v.Why)) {
		m.logf("generate: dropped task %s: %s", id, v.Why[id])
	}
	withRef, withMutant := 0, 0
	for i := range tasks {
		if tasks[i].Reference != nil {
			withRef++
			if template.Mutant(&tasks[i]) != nil {
				withMutant++
			}
		}
	}
	unproven := len(tasks) - withRef
	note := fmt.Sprintf("of %d tasks with a reference, %d proven (reference passes; empty and adversary rollouts and the battery of wrong solutions fail; a mutated reference fails for the %d whose template defines one)",
		withRef, withRef-len(v.Why), withMutant)
	if len(v.Dropped) > 0 {
		note += "; dropped: " + runinfo.CountsNote(v.Dropped)
	}
	if unproven > 0 {
		note += fmt.Sprintf("; %d without a reference kept unproven", unproven)
	}
	m.sum.add("validate", len(tasks), len(v.Kept), "%s", note)
	return v.Kept, nil
}

// graderRows are the per-template tallies of a validation as the run
// records and the card shows them, by template name.
func graderRows(g map[string]proof.Tally) []dataset.GraderRow {
	var rows []dataset.GraderRow
	for _, name := range slices.Sorted(maps.Keys(g)) {
		t := g[name]
		rows = append(rows, dataset.GraderRow{Generator: name, Tasks: t.Tasks, Wrong: t.Wrong, Rejected: t.Rejected,
			Stale: t.Stale, StaleRejected: t.StaleRejected, Unmoved: t.Unmoved, Dropped: t.Dropped})
	}
	return rows
}

// droppedMarkdown is tasks.report.md's list of the tasks the proof
// dropped (id -> reason and why); empty when none was.
func droppedMarkdown(why map[string]string) string {
	if len(why) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Tasks dropped by their proof\n\n%d tasks were dropped: their reference did not hold, or their checks passed a wrong solution.\n\n| task | reason | why |\n|---|---|---|\n", len(why))
	cell := strings.NewReplacer("|", `\|`, "\n", " ")
	for _, id := range slices.Sorted(maps.Keys(why)) {
		reason, detail, _ := strings.Cut(why[id], ": ")
		fmt.Fprintf(&b, "| %s | %s | %s |\n", id, reason, cell.Replace(detail))
	}
	b.WriteString("\n")
	return b.String()
}
