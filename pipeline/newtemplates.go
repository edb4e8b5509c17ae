package pipeline

import (
	"context"
	"fmt"
	"strings"

	"synth/generators"
	"synth/generators/template"
)

// adviseNewTemplates, on a run whose tasks were written already, says
// which templates could add tasks now, how many, and how to get them: the
// run's tasks, split and benchmark stay as they are (adding tasks would
// move files between the benchmark and training), so they come with a
// build into a new run directory.
func (m *taskMaker) adviseNewTemplates(ctx context.Context, fs *fileSet) error {
	if w := m.cfg.Tasks.Writer; (w != "" && w != "template") || len(m.info.Templates) == 0 {
		return nil
	}
	have, err := template.ProbeModules(ctx, pythonOf(m.cfg), template.Modules())
	if err != nil {
		return fmt.Errorf("generate: %w (install Debian's python3, or set sandbox.python)", err)
	}
	types := map[string]bool{}
	for _, id := range fs.order {
		types[fs.byID[id].Type] = true
	}
	news := newTemplates(m.cfg, m.info.Templates, have, types)
	if len(news) == 0 {
		return nil
	}
	var names []string
	for _, t := range news {
		names = append(names, t.Name)
	}
	inputs := make([]generators.Input, 0, len(fs.order))
	for _, id := range fs.order {
		inputs = append(inputs, generators.Input{File: fs.byID[id], Path: fs.path[id]})
	}
	tc := m.cfg.Tasks
	// Counting their tasks is advice: a template that fails on a file here
	// does not stop the run, it leaves the count out.
	would := "they may write more tasks"
	made, err := template.New(template.Options{Seed: m.cfg.Seed, Langs: tc.Langs, Include: names, PerFile: tc.PerFile, PythonModules: have, FilesOnly: !fileless(m.cfg)}).Generate(ctx, inputs)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		would += fmt.Sprintf(" (counting them failed: %v)", err)
	case len(made) == 0:
		return nil
	default:
		would = fmt.Sprintf("they would write %d more tasks", len(made))
	}
	note := fmt.Sprintf("%d templates can run now that could not when the tasks in %s were written (a Python module was installed, or synth was upgraded): %s; %s. %s keeps its tasks, split and benchmark as they are: to get the new tasks, build into a new directory (another -o), or delete %s and build again",
		len(news), m.dir, strings.Join(names, ", "), would, m.dir, m.dir)
	m.logf("generate: %s", note)
	m.sum.Notes = append(m.sum.Notes, note)
	return nil
}
