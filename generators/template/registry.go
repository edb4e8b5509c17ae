package template

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"synth/schemas"
)

// Groups: the twelve subgroups of PyBench's five categories, as
// Task.Subcategory spells them.
const (
	GroupCleaning      = "data_cleaning"       // data analysis
	GroupTransform     = "data_transformation" // data analysis
	GroupStatistics    = "statistics"          // data analysis
	GroupVisualization = "visualization"       // data analysis
	GroupML            = "machine_learning"    // data analysis
	GroupTextMining    = "text_mining"         // text analysis
	GroupDocQA         = "document_qa"         // text analysis
	GroupImage         = "image_editing"       // image and audio
	GroupAudio         = "audio_editing"       // image and audio
	GroupMath          = "math_solving"        // complex math
	GroupWeb           = "web_development"     // software and web
	GroupProgram       = "program_development" // software and web
)

// CoreModules are the Python modules every template may assume.
var CoreModules = []string{"pandas", "numpy", "matplotlib", "openpyxl", "PIL", "scipy", "sklearn", "sympy", "pypdf"}

// Install says how to get a Python module that is not in the core set. The
// locked sandbox environment (pyenv/sandbox.lock) has every one; these
// lines are for an interpreter set with sandbox.python.
var Install = map[string]string{
	"docx":      "in the locked environment (make deps); elsewhere pip install python-docx",
	"qrcode":    "in the locked environment (make deps); elsewhere pip install qrcode",
	"pyarrow":   "in the locked environment (make deps); elsewhere pip install pyarrow",
	"wordcloud": "in the locked environment (make deps); elsewhere pip install wordcloud",
	"cv2":       "in the locked environment (make deps); elsewhere pip install opencv-python-headless",
	"pydub":     "in the locked environment (make deps); elsewhere pip install pydub and apt-get install ffmpeg",
	"soundfile": "in the locked environment (make deps); elsewhere pip install soundfile",
}

// Info describes a template for listings (synth doctor) and filtering.
type Info struct {
	Name        string   // csv.dedup
	Version     int      // bumped when its tasks change
	Category    string   // schemas.Category*
	Subcategory string   // a Group* constant
	FileTypes   []string // input types it reads; empty for tasks without a file
	Requires    []string // Python modules beyond CoreModules
}

// tmpl is a template: its description and how it builds task specs from
// the files of a context.
type tmpl struct {
	Info
	inputs int // 0 (no file), 1, or 2 (joins)
	// build writes the specs of the tasks it can ask of c's files: none
	// when nothing fits them, an error naming the file when it cannot read
	// what it needs.
	build func(c *bctx) ([]spec, error)
	// mutate returns a wrong solution the checks must reject, or nil.
	mutate func(t *schemas.Task) *schemas.Reference
	// composed marks a template of composed tasks (tpl_compose.go): it
	// runs only when Options.Composed.Share is above 0, first on each
	// file, with slots of its own (see Composed).
	composed bool
	// jsonTree marks a template that reads a json file's tree rather than
	// its table: it reads json files that hold no table too (reads).
	jsonTree bool
}

// spec is one task a template can write before it gets a language and an
// id. Strings may hold {out}, replaced by the task's output path stem
// (output/<name>, where outName derives name from the template and the
// input files), and {OUT} by the query form of it (./output/<name>).
type spec struct {
	params   string   // what distinguishes this task from its siblings (columns, values)
	en, zh   []string // phrasings of the query
	steps    []schemas.RefStep
	answer   string // the reference's final answer
	answerZh string // if set, the answer for zh queries
	checks   []schemas.Check
	outputs  []string // {out}.csv …
	requires []string // overrides the template's Requires when set
	// chain is the number of dependent steps of a composed task (its
	// reference's steps between the load and the report); 0 otherwise.
	chain int
}

var registry []*tmpl

func register(t *tmpl) {
	for _, o := range registry {
		if o.Name == t.Name {
			// A misconfigured registry, found at init: a programming error.
			panic("template registered twice: " + t.Name)
		}
	}
	registry = append(registry, t)
}

// Templates lists every template, sorted by name.
func Templates() []Info {
	out := make([]Info, 0, len(registry))
	for _, t := range sorted() {
		out = append(out, t.Info)
	}
	return out
}

func sorted() []*tmpl {
	ts := slices.Clone(registry)
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	return ts
}

// Available splits the templates into those whose Python modules are all
// present and those that are not; skipped has one line per missing template
// saying which module it needs and how to install it.
func Available(pythonModules map[string]bool) (ok []Info, skipped []string) {
	for _, t := range sorted() {
		if m := missing(t.Requires, pythonModules); m != "" {
			skipped = append(skipped, fmt.Sprintf("template %s skipped: needs Python module %s (%s)", t.Name, m, Install[m]))
			continue
		}
		ok = append(ok, t.Info)
	}
	return ok, skipped
}

func missing(req []string, have map[string]bool) string {
	if have == nil {
		return ""
	}
	for _, m := range req {
		if !have[m] {
			return m
		}
	}
	return ""
}

// included reports whether a template name matches the include list (names
// or prefixes); an empty list includes everything.
func included(name string, include []string) bool {
	if len(include) == 0 {
		return true
	}
	for _, p := range include {
		if name == p || (strings.HasSuffix(p, ".") && strings.HasPrefix(name, p)) || strings.HasPrefix(name, p+".") || (strings.HasSuffix(p, "*") && strings.HasPrefix(name, strings.TrimSuffix(p, "*"))) {
			return true
		}
	}
	return false
}

// accepts reports whether the template reads files of this type.
func (t *tmpl) accepts(typ string) bool { return slices.Contains(t.FileTypes, typ) }
