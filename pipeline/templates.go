package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"synth/config"
	"synth/generators/template"
	"synth/runinfo"
	"synth/sources"
)

// fileless reports whether a run writes the tasks that read no file (math,
// programs, web pages): when asked to (tasks.fileless), or when the
// built-in corpus is among its sources, as in the quickstart. A user's own
// files get tasks about those files only.
func fileless(cfg config.Config) bool {
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
func newTemplates(cfg config.Config, recorded []string, have map[string]bool, types map[string]bool) []template.Info {
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

// templatesUnder says which templates the environment py would let run
// that the run's tasks were written without, for the message refusing to
// resume under it; "" when none (or the run recorded no templates).
func templatesUnder(ctx context.Context, info *runinfo.RunInfo, python string) string {
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
