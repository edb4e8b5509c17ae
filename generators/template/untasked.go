package template

import (
	"fmt"
	"slices"
	"strings"

	"synth/generators"
	"synth/schemas"
)

// explain says why each of files that no task in out reads got none;
// unusable[i] is why file i could not be read ("" when it could).
func (g *generator) explain(files []generators.Input, unusable []string, out []schemas.Task) []generators.Untasked {
	read := map[string]bool{}
	for _, t := range out {
		for _, f := range t.Files {
			read[f.ID] = true
		}
	}
	var un []generators.Untasked
	for i, f := range files {
		if read[f.File.ID] {
			continue
		}
		reason, detail := g.whyNone(f.File.Type, unusable[i])
		un = append(un, generators.Untasked{File: f.File, Reason: reason, Detail: detail})
	}
	return un
}

// whyNone is why a file of type typ got no task: the first that applies
// of no template reading the type, the file unreadable (unusable says why),
// tasks.templates leaving out every reader, a missing Python module, and
// the templates finding nothing to ask.
func (g *generator) whyNone(typ, unusable string) (reason, detail string) {
	readers, kept := 0, 0
	var runnable int
	var mods []string
	for _, t := range sorted() {
		if t.inputs == 0 || !t.accepts(typ) {
			continue
		}
		readers++
		if !included(t.Name, g.opts.Include) {
			continue
		}
		kept++
		if m := missing(t.Requires, g.opts.PythonModules); m != "" {
			if !slices.Contains(mods, m) {
				mods = append(mods, m)
			}
			continue
		}
		runnable++
	}
	switch {
	case readers == 0:
		return generators.ReasonUnsupportedType, fmt.Sprintf("no template reads %s files", typeName(typ))
	case unusable != "":
		return generators.ReasonUnusable, fmt.Sprintf("as %s: %s", typ, unusable)
	case kept == 0:
		return generators.ReasonExcluded, fmt.Sprintf("tasks.templates (--templates) leaves out the %d templates that read %s", readers, typ)
	}
	if m := typeModule[typ]; m != "" && missing([]string{m}, g.opts.PythonModules) != "" {
		return generators.ReasonModuleMissing, fmt.Sprintf("reading %s needs Python module %s (%s)", typ, m, Install[m])
	}
	if runnable == 0 {
		var need []string
		for _, m := range mods {
			need = append(need, fmt.Sprintf("%s (%s)", m, Install[m]))
		}
		return generators.ReasonModuleMissing, fmt.Sprintf("every template that reads %s needs a missing Python module: %s", typ, strings.Join(need, "; "))
	}
	return generators.ReasonNoTemplateFits, fmt.Sprintf("none of the %d templates that read %s found a question to ask of it", runnable, typ)
}

// typeName names a file type in a sentence.
func typeName(typ string) string {
	if typ == "" {
		return "untyped"
	}
	return typ
}
