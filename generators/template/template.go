package template

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"synth/checks"
	"synth/generators"
	"synth/schemas"
)

// Limits of the two-file templates per file: partners that yield a task,
// and partners tried.
const (
	maxPartners = 2
	maxTries    = 24
)

// Options configure the template generator.
type Options struct {
	Seed    int64    // picks phrasings and parameters
	Langs   []string // en, zh; empty: both
	Include []string // template names or prefixes (csv.dedup, text.); empty: all
	PerFile int      // templates per input file; 0: every one that fits
	// PythonModules, if set, are the modules the sandbox's Python has:
	// templates needing others are skipped (Available lists them, one line
	// each with how to install the module), and tasks on a file type whose
	// module is missing (parquet: pyarrow, mp3: pydub) are skipped with one
	// log line per module.
	PythonModules map[string]bool
	// Strict makes a template that fails on a file, or writes a task that
	// fails checks.Validate, an error of Generate; otherwise the task is
	// left out with a warning naming its template and files.
	Strict bool
	// FilesOnly writes no task that reads no file (math, programs, web
	// pages): the tasks are about the files given, and nothing else.
	FilesOnly bool
	// Composed sets the composed tasks (tpl_compose.go): none when its
	// Share is 0.
	Composed Composed
}

// Composed is how many composed tasks the generator writes, and how deep.
type Composed struct {
	// Share is the share of a table file's tasks (PerFile, or 3 when
	// PerFile is 0) given to composed tasks, rounded, at least one when
	// above 0: with PerFile 3, 0.5 gives two composed tasks and one
	// single-step task per table file, where the composer finds a chain.
	// Each pair of tables a key links gets one composed task more.
	Share float64
	// Depth is the fewest dependent steps a composed task has (3 when 0).
	Depth int
}

// chains is how many composed tasks a one-file composer writes per file.
func (o Options) chains() int {
	if o.Composed.Share <= 0 {
		return 0
	}
	per := o.PerFile
	if per <= 0 {
		per = 3
	}
	return max(1, int(math.Round(o.Composed.Share*float64(per))))
}

// depth is the fewest dependent steps of a composed task.
func (o Options) depth() int {
	if o.Composed.Depth <= 0 {
		return 3
	}
	return o.Composed.Depth
}

type generator struct {
	opts     Options
	untasked []generators.Untasked // of the last Generate
}

// New returns the template generator.
func New(opts Options) generators.Generator {
	if len(opts.Langs) == 0 {
		opts.Langs = []string{"en", "zh"}
	}
	return &generator{opts: opts}
}

func (g *generator) Name() string { return "template" }

// Generate writes every task its templates can write for the files, plus
// the tasks that need no file unless Options.FilesOnly. Files of a type no
// template reads yield nothing; Untasked says why each file without a task
// has none.
//
// It runs in phases, each adding to the tasks of the one before: the
// one-file templates over each file that can be read as its type, the
// two-file templates over pairs of such files, then the templates that
// read no file.
func (g *generator) Generate(ctx context.Context, files []generators.Input) ([]schemas.Task, error) {
	r := &run{generator: g, ts: g.chosen(), cache: newParsed(), names: outNamer{}}
	readable, unusable, err := r.oneFileTasks(ctx, files)
	if err != nil {
		return nil, err
	}
	if err := r.twoFileTasks(ctx, files, readable); err != nil {
		return nil, err
	}
	if !g.opts.FilesOnly {
		if err := r.filelessTasks(); err != nil {
			return nil, err
		}
	}
	g.untasked = g.explain(files, unusable, r.out)
	return r.out, nil
}

// run is one Generate call: the templates it uses, the files it has
// read, and the tasks and output names it has written so far.
type run struct {
	*generator
	ts    []*tmpl
	cache *parsed
	names outNamer
	out   []schemas.Task
}

// chosen are the templates Options.Include names whose Python modules are
// all present, sorted by name.
func (g *generator) chosen() []*tmpl {
	var ts []*tmpl
	for _, t := range sorted() {
		if !included(t.Name, g.opts.Include) {
			continue
		}
		if missing(t.Requires, g.opts.PythonModules) != "" {
			continue // Available says which, with how to install it
		}
		if t.composed && g.opts.chains() == 0 {
			continue
		}
		ts = append(ts, t)
	}
	return ts
}

// oneFileTasks reads each file as its type (usable) and runs the one-file
// templates over it: readable[i] says whether file i could be read and is
// big enough for a template, unusable[i] why not.
func (r *run) oneFileTasks(ctx context.Context, files []generators.Input) (readable []bool, unusable []string, err error) {
	readable = make([]bool, len(files))
	unusable = make([]string, len(files))
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		c := newCtx(r.opts.Seed, []generators.Input{f}, r.cache)
		if err := usable(c); err != nil {
			unusable[i] = err.Error()
			slog.Warn("file skipped: cannot read it as its type", "file", f.File.Name, "type", f.File.Type, "err", unusable[i])
			continue
		}
		readable[i] = true
		if ts, ok := smallTable(c); ok {
			// Said in tasks.report.md if no template that carries a small
			// table over wrote a task either.
			unusable[i] = ts.Error() + " for all but the conversion templates (" + strings.Join(smallNames(), ", ") + ")"
		}
		if f.File.Type == "json" {
			if err := tableUsable(c, 0); err != nil {
				// Said in tasks.report.md if no template asks about the
				// document's structure either.
				unusable[i] = "no table for the table templates: " + err.Error()
			}
		}
		if err := r.overFile(c); err != nil {
			return nil, nil, err
		}
		// Only one-file templates read a PDF's pages or a DOCX's
		// paragraphs: they need not be held for the pairs.
		r.cache.forget(f.File.ID, pdfFile.kind, docxFile.kind)
	}
	return readable, unusable, nil
}

// overFile runs the one-file templates over the file of c, in an order
// fixed by the seed and the file (messy tables first), until
// Options.PerFile of them have written a task.
func (r *run) overFile(c *bctx) error {
	f := c.files[0]
	n, err := r.composedOver(c)
	if err != nil {
		return err
	}
	for _, t := range messyFirst(c, candidates(r.ts, c, r.opts.Seed)) {
		if r.opts.PerFile > 0 && n >= r.opts.PerFile {
			break
		}
		c.rng = rngFor(r.opts.Seed, t.Name, f.File.ID)
		made, err := r.add(t, c)
		if err != nil {
			return err
		}
		if made {
			n++
		}
	}
	return nil
}

// composedOver runs the one-file composed templates over the file of c
// first, each writing up to Options.Composed's chains; n is how many
// composed tasks (specs) they wrote, which count against PerFile.
func (r *run) composedOver(c *bctx) (n int, err error) {
	c.depth, c.chains = r.opts.depth(), r.opts.chains()
	defer func() { c.chains = 0 }()
	if r.opts.PerFile > 0 && c.chains >= r.opts.PerFile && slices.Contains(tableTypes, c.typ(0)) && hasMess(c) {
		// A messy table keeps a slot for the templates that deal with
		// its mess (messyFirst).
		c.chains = r.opts.PerFile - 1
	}
	if c.chains == 0 {
		return 0, nil
	}
	for _, t := range r.ts {
		if !t.composed || t.inputs != 1 || !reads(t, c, 0) {
			continue
		}
		c.rng = rngFor(r.opts.Seed, t.Name, c.files[0].File.ID)
		made, err := r.addN(t, c)
		if err != nil {
			return 0, err
		}
		n += made
	}
	return n, nil
}

// twoFileTasks runs the two-file templates: each readable file is tried
// with later partners of a fitting type until it has maxPartners tasks or
// maxTries partners were tried, so the work stays linear in the number of
// files.
func (r *run) twoFileTasks(ctx context.Context, files []generators.Input, readable []bool) error {
	for _, t := range r.ts {
		if t.inputs != 2 {
			continue
		}
		for i := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			if !readable[i] || !reads(t, newCtx(r.opts.Seed, files[i:i+1], r.cache), 0) {
				continue
			}
			found, tried := 0, 0
			for k := 1; k < len(files) && found < maxPartners && tried < maxTries; k++ {
				j := (i + k) % len(files)
				if !readable[j] || !reads(t, newCtx(r.opts.Seed, files[j:j+1], r.cache), 0) {
					continue
				}
				tried++
				c := newCtx(r.opts.Seed, []generators.Input{files[i], files[j]}, r.cache)
				c.depth, c.chains = r.opts.depth(), 1
				c.rng = rngFor(r.opts.Seed, t.Name, files[i].File.ID+files[j].File.ID)
				made, err := r.add(t, c)
				if err != nil {
					return err
				}
				if made {
					found++
				}
			}
		}
	}
	return nil
}

// filelessTasks runs the templates that read no file (math, programs, web
// pages).
func (r *run) filelessTasks() error {
	for _, t := range r.ts {
		if t.inputs != 0 {
			continue
		}
		c := newCtx(r.opts.Seed, nil, r.cache)
		c.rng = rngFor(r.opts.Seed, t.Name, "")
		if _, err := r.add(t, c); err != nil {
			return err
		}
	}
	return nil
}

// add runs template t on the files of c and keeps the tasks it writes, one
// per spec and language; made reports whether t wrote any spec. A template
// that fails on the files, or writes a task that fails checks.Validate,
// has a bug an odd file revealed: the files lose its tasks with a warning
// and the stage goes on, unless Options.Strict (the tests' setting) makes
// it the error of Generate.
func (r *run) add(t *tmpl, c *bctx) (made bool, err error) {
	n, err := r.addN(t, c)
	return n > 0, err
}

// addN is add, saying how many specs t wrote.
func (r *run) addN(t *tmpl, c *bctx) (made int, err error) {
	specs, err := build(t, c)
	if err != nil {
		err = fmt.Errorf("template %s: files %s: %w", t.Name, namesOf(c.files), err)
		if r.opts.Strict {
			return 0, err
		}
		slog.Warn("template failed on its files; no task from it", "template", t.Name, "files", namesOf(c.files), "err", err)
		return 0, nil
	}
	for _, s := range specs {
		s = c.whereTables(t, s)
		name := r.names.unique(nestedName(t.Name, outName(t.Name, c.files), s))
		for _, lang := range r.opts.Langs {
			task, err := r.task(t, s, c.files, lang, name)
			if err != nil {
				if r.opts.Strict {
					return 0, err
				}
				slog.Warn("template wrote an invalid task; left out", "template", t.Name, "files", namesOf(c.files), "err", err)
				continue
			}
			if m := missing(task.Requires, r.opts.PythonModules); m != "" {
				skipOnce(m, "tasks skipped", "file_types", filesOf(task), "needs", m, "install", Install[m])
				continue
			}
			r.out = append(r.out, task)
		}
	}
	return len(specs), nil
}

// Untasked implements generators.Explainer.
func (g *generator) Untasked() []generators.Untasked { return g.untasked }

var (
	skipMu   sync.Mutex
	skipSeen = map[string]bool{}
)

func namesOf(files []generators.Input) string {
	var ns []string
	for _, f := range files {
		ns = append(ns, f.File.Name)
	}
	return strings.Join(ns, ",")
}

func filesOf(t schemas.Task) string {
	var ts []string
	for _, f := range t.Files {
		ts = append(ts, f.Type)
	}
	return strings.Join(ts, ",")
}

// skipOnce logs a skip reason once per process.
func skipOnce(key, msg string, args ...any) {
	skipMu.Lock()
	defer skipMu.Unlock()
	if !skipSeen[key] {
		skipSeen[key] = true
		slog.Info(msg, args...)
	}
}

// build runs template t's builder on the files of c. A builder that
// cannot make a task from its files says why with an error. A builder
// that panics has a bug an odd file revealed (an index out of range): the
// panic is recovered into an error as well, so one file cannot stop a
// stage that runs for hours.
func build(t *tmpl, c *bctx) (specs []spec, err error) {
	defer func() {
		if r := recover(); r != nil {
			specs, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return t.build(c)
}

// candidates are the one-file templates that read c's file (reads), in an order
// fixed by the seed and the file, so PerFile picks a varied subset.
func candidates(ts []*tmpl, c *bctx, seed int64) []*tmpl {
	f := c.files[0]
	var out []*tmpl
	for _, t := range ts {
		if t.inputs == 1 && !t.composed && reads(t, c, 0) {
			out = append(out, t)
		}
	}
	key := func(t *tmpl) string { return hashHex(fmt.Sprint(seed), f.File.ID, t.Name) }
	sort.Slice(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

func rngFor(seed int64, parts ...string) *rand.Rand {
	h := sha256.Sum256([]byte(fmt.Sprint(seed) + "\x00" + strings.Join(parts, "\x00")))
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(h[:8]), binary.LittleEndian.Uint64(h[8:16])))
}

func hashHex(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:])
}

// openers vary how a request starts, as people's do; most start plainly.
var openers = map[string][]string{
	"en": {"", "", "", "", "Hi, ", "Quick task: ", "Could you help me with this? ", "Hello! "},
	"zh": {"", "", "", "", "你好，", "帮我个忙：", "麻烦你一下，", "你好！"},
}

// opener picks an opening for a query from a hex key.
func opener(lang, key string) string {
	os := openers[lang]
	if len(os) == 0 {
		return ""
	}
	n, _ := strconv.ParseUint(key, 16, 64)
	o := os[n%uint64(len(os))]
	return o
}

// typeModule is the Python module reading a file type needs beyond the core.
var typeModule = map[string]string{"parquet": "pyarrow", "mp3": "pydub"}

// task turns a spec into a task in one language; name is the stem of its
// output files.
func (g *generator) task(t *tmpl, s spec, files []generators.Input, lang, name string) (schemas.Task, error) {
	var ids []string
	var tfs []schemas.TaskFile
	for _, f := range files {
		ids = append(ids, f.File.ID)
		tfs = append(tfs, schemas.TaskFile{ID: f.File.ID, Name: f.File.Name, Type: f.File.Type})
	}
	gen := fmt.Sprintf("template:%s@%d", t.Name, t.Version)
	full := hashHex(gen, strings.Join(ids, ","), s.params, lang, fmt.Sprint(g.opts.Seed))
	id := full[:16]
	repl := strings.NewReplacer("{OUT}", "./output/"+name, "{out}", "output/"+name)

	phr := s.en
	answer := s.answer
	if lang == "zh" {
		phr = s.zh
		if s.answerZh != "" {
			answer = s.answerZh
		}
	}
	if len(phr) == 0 {
		return schemas.Task{}, fmt.Errorf("template %s: no %s phrasing", t.Name, lang)
	}
	pick := binary.LittleEndian.Uint64([]byte(full[16:24])) % uint64(len(phr))
	query := repl.Replace(phr[pick])
	if o := opener(lang, full[24:32]); o != "" {
		if strings.HasSuffix(o, ", ") && len(query) > 1 && query[0] >= 'A' && query[0] <= 'Z' && query[1] >= 'a' && query[1] <= 'z' {
			query = strings.ToLower(query[:1]) + query[1:]
		}
		query = o + query
	}

	var cs []schemas.Check
	raw, err := json.Marshal(s.checks)
	if err != nil {
		return schemas.Task{}, err
	}
	if err := json.Unmarshal([]byte(repl.Replace(string(raw))), &cs); err != nil {
		return schemas.Task{}, err
	}
	ref := &schemas.Reference{Answer: repl.Replace(answer)}
	for _, st := range s.steps {
		code := repl.Replace(st.Code)
		if dir := path.Dir(name); dir != "." {
			code = strings.ReplaceAll(code, mkOutput, fmt.Sprintf("os.makedirs('./output/%s', exist_ok=True)", dir))
		}
		ref.Steps = append(ref.Steps, schemas.RefStep{Thought: repl.Replace(st.Thought), Code: code})
	}
	var outs []string
	for _, o := range s.outputs {
		outs = append(outs, repl.Replace(o))
	}
	req := t.Requires
	if s.requires != nil {
		req = s.requires
	}
	for _, f := range files {
		if m := typeModule[f.File.Type]; m != "" && !slices.Contains(req, m) {
			req = append(slices.Clone(req), m)
		}
	}
	task := schemas.Task{
		ID: id, Category: t.Category, Subcategory: t.Subcategory, Files: tfs, Query: query, Lang: lang,
		Checks: cs, Reference: ref, Generator: gen, Outputs: outs, Requires: req, Steps: s.chain,
	}
	if err := checks.Validate(&task); err != nil {
		return schemas.Task{}, fmt.Errorf("template %s: %w", t.Name, err)
	}
	return task, nil
}
