package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"synth/generators"
	"synth/generators/template"
	"synth/sources"
)

// fileless reports whether a run writes the tasks that read no file (math,
// programs, web pages): when asked to (tasks.fileless), or when the
// built-in corpus is among its sources, as in the quickstart. A user's own
// files get tasks about those files only.
func fileless(cfg Config) bool {
	if cfg.Tasks.Fileless {
		return true
	}
	specs, err := sources.ParseSpecs(cfg.Sources.Specs)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(specs, func(s sources.Spec) bool { return s.Kind == sources.KindSample })
}

// templateIDs are the templates as run.json records them: name@version,
// sorted.
func templateIDs(infos []template.Info) []string {
	ids := make([]string, 0, len(infos))
	for _, t := range infos {
		ids = append(ids, fmt.Sprintf("%s@%d", t.Name, t.Version))
	}
	slices.Sort(ids)
	return ids
}

// newTemplates are the templates that can run now, with the modules have,
// that could not when the run's tasks were written (recorded, run.json's
// Templates):
// a module was installed, or synth was upgraded. Only those the config
// includes and that read a type among types (or no file, when the run
// writes such tasks) are listed: the others would add nothing. A run
// that recorded no templates (written before they were recorded, or by the
// LLM writer) has none.
func newTemplates(cfg Config, recorded []string, have map[string]bool, types map[string]bool) []template.Info {
	if len(recorded) == 0 {
		return nil
	}
	ok, _ := template.Available(have)
	var news []template.Info
	for _, t := range ok {
		if slices.Contains(recorded, fmt.Sprintf("%s@%d", t.Name, t.Version)) || !included("template "+t.Name, cfg.Tasks.Templates) {
			continue
		}
		reads := slices.ContainsFunc(t.FileTypes, func(typ string) bool { return types[typ] })
		if reads || (len(t.FileTypes) == 0 && fileless(cfg)) {
			news = append(news, t)
		}
	}
	return news
}

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

// templatesUnder says which templates the environment py would let run
// that the run's tasks were written without, for the message refusing to
// resume under it; "" when none (or the run recorded no templates).
func templatesUnder(ctx context.Context, info *RunInfo, python string) string {
	if len(info.Templates) == 0 {
		return ""
	}
	have, err := template.ProbeModules(ctx, python, template.Modules())
	if err != nil {
		return ""
	}
	ok, _ := template.Available(have)
	var news []string
	for _, id := range templateIDs(ok) {
		if !slices.Contains(info.Templates, id) {
			news = append(news, id)
		}
	}
	if len(news) == 0 {
		return ""
	}
	return fmt.Sprintf(" (under it %d more templates can run: %s; a new -o gets their tasks)", len(news), strings.Join(news, ", "))
}
