package view

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Options say what Build shows and where it writes the site.
type Options struct {
	// Inputs are the folders shown: one run directory, dataset folder or
	// eval results folder, or two eval results folders side by side.
	Inputs []string
	// Out is the site's folder. It must be empty, missing, or a site an
	// earlier Build wrote (which is then replaced).
	Out string
	// Copy copies input files and artifacts into the site (Out/media) so it
	// stands alone; without it they are linked from the inputs by relative
	// paths.
	Copy bool
	// Log gets progress lines; nil: none.
	Log io.Writer
}

// Result is what Build wrote.
type Result struct {
	Out   string // the site's folder
	Index string // its index.html
	Pages int    // trajectory pages
}

// Site layout.
const (
	markerFile = ".synth-view"
	// The index is written in chunks: a small first one, drawn as soon as
	// it is in, then larger ones the index asks for together.
	firstChunkRows = 500
	chunkRows      = 5000
	maxIndexQuery  = 1000 // characters of a query the index keeps for its search
)

// ErrNotASite is returned when Out holds files that no Build wrote.
var ErrNotASite = errors.New("not a synth view site")

// site is a site being written.
type site struct {
	opts   Options
	out    string
	inputs []*input // what is shown
	roots  []*input // the inputs, then folders they refer to (an eval's benchmark)
	n      int
	chunk  bytes.Buffer
	rows   int // in chunk
	chunks int
	facets map[string]*facet
	tally  []tally // per input
	copied map[string]bool
}

// Build writes the site for opts.Inputs into opts.Out. It reads the inputs
// one record at a time; a run of any size takes memory for its keys only.
func Build(ctx context.Context, opts Options) (*Result, error) {
	if len(opts.Inputs) == 0 || len(opts.Inputs) > 2 {
		return nil, fmt.Errorf("view: give one folder, or two eval results folders to compare (got %d)", len(opts.Inputs))
	}
	s := &site{opts: opts, facets: map[string]*facet{}, copied: map[string]bool{}}
	defer func() {
		for _, r := range s.roots {
			r.root.Close()
		}
	}()
	for i, dir := range opts.Inputs {
		in, err := openInput(i, dir)
		if err != nil {
			return nil, err
		}
		s.inputs = append(s.inputs, in)
		s.roots = append(s.roots, in)
	}
	s.tally = make([]tally, len(s.inputs))
	if len(s.inputs) == 2 {
		if s.inputs[0].kind != KindEval || s.inputs[1].kind != KindEval {
			return nil, fmt.Errorf("view: two folders are compared only when both are eval results (synth eval -o); %s is a %s, %s a %s",
				opts.Inputs[0], s.inputs[0].kind, opts.Inputs[1], s.inputs[1].kind)
		}
		if s.inputs[0].label == s.inputs[1].label {
			s.inputs[0].label, s.inputs[1].label = "A: "+s.inputs[0].label, "B: "+s.inputs[1].label
		}
	}
	if err := s.prepare(); err != nil {
		return nil, err
	}
	var ov []Overview
	var err error
	switch s.inputs[0].kind {
	case KindRun:
		ov, err = s.writeRun(ctx, s.inputs[0])
	case KindDataset:
		ov, err = s.writeDataset(ctx, s.inputs[0])
	case KindEval:
		ov, err = s.writeEvals(ctx, s.inputs)
	}
	if err != nil {
		return nil, err
	}
	if err := s.flushChunk(); err != nil {
		return nil, err
	}
	if err := s.writeMeta(ov); err != nil {
		return nil, err
	}
	return &Result{Out: s.out, Index: filepath.Join(s.out, "index.html"), Pages: s.n}, nil
}

// prepare makes the site's folder, or empties one an earlier Build wrote,
// and writes the static files.
func (s *site) prepare() error {
	out, err := filepath.Abs(s.opts.Out)
	if err != nil {
		return err
	}
	s.out = out
	for _, in := range s.inputs {
		if rel, err := filepath.Rel(in.dir, out); err == nil && filepath.IsLocal(rel) {
			return fmt.Errorf("view: -o %s is inside the input %s: write the site elsewhere", s.opts.Out, in.dir)
		}
	}
	ents, err := os.ReadDir(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("view: -o %s: %w", s.opts.Out, err)
	case len(ents) > 0:
		if _, err := os.Stat(filepath.Join(out, markerFile)); err != nil {
			return fmt.Errorf("view: -o %s: %w: it holds other files (choose an empty or new folder)", s.opts.Out, ErrNotASite)
		}
		for _, e := range ents {
			if err := os.RemoveAll(filepath.Join(out, e.Name())); err != nil {
				return fmt.Errorf("view: -o %s: %w", s.opts.Out, err)
			}
		}
	}
	for _, d := range []string{"data/i", "data/t", "assets"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			return fmt.Errorf("view: -o %s: %w", s.opts.Out, err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, markerFile), []byte("written by synth view; the folder is replaced by the next synth view -o here\n"), 0o644); err != nil {
		return fmt.Errorf("view: -o %s: %w", s.opts.Out, err)
	}
	return writeAssets(out)
}

// add writes one trajectory page and its index row.
func (s *site) add(ctx context.Context, p *Page) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p.N = s.n
	s.n++
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("view: page %d (%s): %w", p.N, p.Task.ID, err)
	}
	if err := writeJSONP(filepath.Join(s.out, pagePath(p.N)), "synthPage(", b); err != nil {
		return err
	}
	for i, sd := range p.Sides {
		s.tally[i].add(sd)
	}
	if err := s.addRow(p); err != nil {
		return err
	}
	if s.opts.Log != nil && s.n%10000 == 0 {
		fmt.Fprintf(s.opts.Log, "view: %d pages\n", s.n)
	}
	return nil
}

// pagePath is where page n's data is, relative to the site: a folder per
// thousand pages.
func pagePath(n int) string {
	return fmt.Sprintf("data/t/%03d/%d.js", n/1000, n)
}

// writeJSONP writes call + b + ");" into path, call being the start of a
// function call ("synthPage("): a script the site's pages load, which works
// from file:// where fetching JSON does not. b is JSON from encoding/json
// (which escapes <, >, &, U+2028 and U+2029), so it is one JavaScript
// expression that cannot end the call early.
func writeJSONP(path, call string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.Grow(len(b) + len(call) + 4)
	buf.WriteString(call)
	buf.Write(b)
	buf.WriteString(");\n")
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// addRow appends page p's index row to the current chunk: [n, id,
// category, subcategory, generator, teacher, verdict, failure, turns,
// [file types], query, stop reason, filter], the words as numbers into the facets.
func (s *site) addRow(p *Page) error {
	var ids, teachers, verdicts, failures, stops, dropped []string
	turns := -1
	for _, sd := range p.Sides {
		ids = append(ids, sd.ID)
		teachers = append(teachers, sd.Teacher)
		verdicts = append(verdicts, sd.verdictWord())
		failures = append(failures, sd.failure())
		stops = append(stops, sd.StopReason)
		dropped = append(dropped, sd.Dropped)
		if turns < 0 && sd.Missing == "" {
			turns = sd.Turns
		}
	}
	var fts []int
	for _, ft := range p.Task.FileTypes {
		fts = append(fts, s.facet("file_type").id(ft))
	}
	if fts == nil {
		fts = []int{s.facet("file_type").id("")}
	}
	q := p.Task.Query
	if r := []rune(q); len(r) > maxIndexQuery {
		q = string(r[:maxIndexQuery])
	}
	row := []any{p.N, strings.Join(ids, " "),
		s.facet("category").id(p.Task.Category), s.facet("subcategory").id(p.Task.Subcategory),
		s.facet("generator").id(p.Task.Generator), s.facet("teacher").id(joinSides(teachers)),
		s.facet("verdict").id(joinSides(verdicts)), s.facet("failure").id(joinSides(failures)),
		turns, fts, q, s.facet("stop_reason").id(joinSides(stops)), s.facet("filtered").id(dropStage(dropped))}
	b, err := json.Marshal(row)
	if err != nil {
		return err
	}
	if s.rows > 0 {
		s.chunk.WriteByte(',')
	}
	s.chunk.Write(b)
	s.chunk.WriteByte('\n')
	s.rows++
	if s.rows == chunkRows || (s.chunks == 0 && s.rows == firstChunkRows) {
		return s.flushChunk()
	}
	return nil
}

// joinSides is one word for the sides of a comparison ("passed | failed"),
// or the single side's word.
func joinSides(words []string) string {
	if len(words) == 2 && words[0] == words[1] {
		return words[0]
	}
	return strings.Join(words, " | ")
}

func (s *site) flushChunk() error {
	if s.rows == 0 {
		return nil
	}
	b := append(append([]byte("["), s.chunk.Bytes()...), ']')
	if err := writeJSONP(filepath.Join(s.out, fmt.Sprintf("data/i/%05d.js", s.chunks)), fmt.Sprintf("synthIndex(%d,", s.chunks), b); err != nil {
		return err
	}
	s.chunks++
	s.chunk.Reset()
	s.rows = 0
	return nil
}

// dropStage is the filter word of the index: the stage and reason that
// dropped the trajectory, without what it matched.
func dropStage(dropped []string) string {
	for _, d := range dropped {
		if d != "" {
			if i := strings.Index(d, ": "); i >= 0 {
				if j := strings.Index(d[i+2:], ": "); j >= 0 {
					return d[:i+2+j]
				}
			}
			return d
		}
	}
	return ""
}

// addRoot opens a folder pages link files from that is not an input.
func (s *site) addRoot(dir, label, kind string) (*input, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for _, r := range s.roots {
		if r.dir == abs {
			return r, nil
		}
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("view: %w", err)
	}
	in := &input{index: len(s.roots), dir: abs, label: label, kind: kind, root: root}
	s.roots = append(s.roots, in)
	return in, nil
}
