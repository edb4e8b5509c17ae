package template

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"synth/checks/checkstest"
	"testing"

	"golang.org/x/sync/errgroup"

	"synth/checks/adversary"
	"synth/proof"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

var (
	hackTable  = flag.String("hack-table", "", "write the template × adversary table of TestConformance as Markdown to this file")
	updateDocs = flag.Bool("update-docs", false, "rewrite docs/HACK_RESISTANCE.md's template × adversary table with TestConformance's")
)

// hackDoc is the page that quotes TestConformance's table.
const hackDoc = "../../docs/HACK_RESISTANCE.md"

// TestConformance writes every task the templates write over the built-in
// corpus, and proves provePer of each template and input type in the real
// sandbox: the reference passes, and the mutant and
// every adversary (empty, shotgun, copied input, random bytes, blank image,
// shadow modules, forged code) fail. It prints a template × adversary
// table and fails on any pass.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every template in the sandbox")
	}
	python := pyenvtest.Python(t)
	b := checkstest.Backend(t, 4)
	have, err := ProbeModules(context.Background(), python, Modules())
	if err != nil {
		t.Fatal(err)
	}
	// In the locked environment no template and no file type is skipped.
	if _, skipped := Available(have); len(skipped) > 0 {
		t.Errorf("templates skipped in the locked environment: %v", skipped)
	}
	ins, paths := corpus(t)
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, PythonModules: have, Strict: true}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, task := range tasks {
		for _, f := range task.Files {
			covered[f.Type] = true
		}
	}
	for _, in := range ins {
		if !covered[in.File.Type] {
			t.Errorf("the corpus's %s file %s gets no task", in.File.Type, in.File.Name)
		}
	}
	tasks = proofSample(tasks, provePer)
	proofs := make([]proof.Proof, len(tasks))
	g, ctx := errgroup.WithContext(context.Background())
	g.SetLimit(2)
	for i := range tasks {
		g.Go(func() error {
			var err error
			proofs[i], err = ProveTask(ctx, b, &tasks[i], paths)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	tab := newHackTable()
	for i := range tasks {
		tab.add(&tasks[i], proofs[i])
		reason, why := proofs[i].Reason()
		switch reason {
		case "":
		case proof.DropBatteryPasses, proof.DropStalePasses:
			for name, a := range proofs[i].Adversaries {
				if a.Passed {
					t.Errorf("%s %s: adversary %s passes every check", tasks[i].ID, tasks[i].Generator, name)
				}
			}
			// The battery finds the templates whose checks read an
			// output's shape, not its content; a build drops those tasks
			// and tasks.report.md counts them. They are listed here until
			// every template's checks compare content.
			t.Logf("%s %s: %s: %s", tasks[i].ID, tasks[i].Generator, reason, why)
		default:
			t.Errorf("%s %s: %s: %s", tasks[i].ID, tasks[i].Generator, reason, why)
		}
	}
	md := tab.markdown()
	t.Logf("template × adversary (fail/applied; PASS n: n tasks passed, which must not happen):\n%s", md)
	if *hackTable != "" {
		if err := os.WriteFile(*hackTable, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkDocTable(t, md)
}

// checkDocTable compares docs/HACK_RESISTANCE.md's template × adversary
// table with this run's md, or rewrites it with -update-docs.
func checkDocTable(t *testing.T, md string) {
	t.Helper()
	doc, err := os.ReadFile(hackDoc)
	if err != nil {
		t.Fatal(err)
	}
	start, end, err := docTable(string(doc))
	if err != nil {
		t.Fatalf("%s: %v", hackDoc, err)
	}
	if *updateDocs {
		if err := os.WriteFile(hackDoc, []byte(string(doc[:start])+md+string(doc[end:])), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := string(doc[start:end]); got != md {
		t.Errorf("%s's table is not this run's; rewrite it with go test ./generators/template/ -run TestConformance -args -update-docs\n%s", hackDoc, lineDiff(got, md))
	}
}

// docTable finds the template × adversary table in a page: from its header
// line to the end of its last row.
func docTable(doc string) (start, end int, err error) {
	start = strings.Index(doc, "\n| template | reference |")
	if start < 0 {
		return 0, 0, fmt.Errorf("no template × adversary table")
	}
	start++
	end = start
	for end < len(doc) && doc[end] == '|' {
		nl := strings.IndexByte(doc[end:], '\n')
		if nl < 0 {
			return 0, 0, fmt.Errorf("the table's last line has no newline")
		}
		end += nl + 1
	}
	return start, end, nil
}

// lineDiff lists the lines of want that got lacks and the other way round.
func lineDiff(got, want string) string {
	var b strings.Builder
	in := func(s, line string) bool { return slices.Contains(strings.Split(s, "\n"), line) }
	for _, l := range strings.Split(want, "\n") {
		if !in(got, l) {
			b.WriteString("run: " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !in(want, l) {
			b.WriteString("doc: " + l + "\n")
		}
	}
	return b.String()
}

// provePer is how many tasks of each template and input type
// TestConformance proves. Every task is written and its coverage checked;
// the proofs, which cost the sandbox's time, run on the first provePer of
// each kind in the corpus's order, so every template is proven on every
// type it reads without proving near-copies of one task many times.
const provePer = 2

// proofSample keeps the first per tasks of each template and input types.
func proofSample(tasks []schemas.Task, per int) []schemas.Task {
	seen := map[string]int{}
	var out []schemas.Task
	for _, t := range tasks {
		k := t.Generator + " " + filesOf(t)
		if seen[k] < per {
			seen[k]++
			out = append(out, t)
		}
	}
	return out
}

// hackTable counts, per template and proof, how many tasks the proof was
// tried on and how many it passed.
type hackTableT struct {
	mu    sync.Mutex
	cols  []string
	cells map[string]map[string][2]int // template -> proof -> {tried, passed}
}

func newHackTable() *hackTableT {
	return &hackTableT{cols: append([]string{"reference", "mutant"}, adversary.Names()...), cells: map[string]map[string][2]int{}}
}

func (h *hackTableT) add(t *schemas.Task, p proof.Proof) {
	h.mu.Lock()
	defer h.mu.Unlock()
	name := strings.TrimPrefix(t.Generator, "template:")
	row := h.cells[name]
	if row == nil {
		row = map[string][2]int{}
		h.cells[name] = row
	}
	count := func(col string, passed bool) {
		c := row[col]
		c[0]++
		if passed {
			c[1]++
		}
		row[col] = c
	}
	count("reference", p.ReferenceError == "" && p.ReferenceFailure == "" && p.ReferenceMismatch == "")
	if p.Mutant != nil {
		count("mutant", *p.Mutant)
	}
	for _, a := range adversary.Names() {
		if r := p.Adversaries[a]; r != nil && r.Applied {
			count(a, r.Passed)
		}
	}
}

// markdown renders the table: the reference column says how many tasks
// passed (all must), the others how many failed out of those tried, or
// PASS n when n tasks let the proof through.
func (h *hackTableT) markdown() string {
	var b strings.Builder
	b.WriteString("| template | " + strings.Join(h.cols, " | ") + " |\n|---|" + strings.Repeat("---|", len(h.cols)) + "\n")
	var names []string
	for n := range h.cells {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		b.WriteString("| " + n + " |")
		for _, col := range h.cols {
			c, ok := h.cells[n][col]
			switch {
			case !ok:
				b.WriteString(" – |")
			case col == "reference" && c[1] == c[0]:
				fmt.Fprintf(&b, " pass %d/%d |", c[1], c[0])
			case col == "reference":
				fmt.Fprintf(&b, " FAIL %d/%d |", c[0]-c[1], c[0])
			case c[1] > 0:
				fmt.Fprintf(&b, " PASS %d/%d |", c[1], c[0])
			default:
				fmt.Fprintf(&b, " fail %d/%d |", c[0], c[0])
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
