package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/checks/checkstest"
	"synth/config"
	"synth/generators"
	"synth/generators/template"
	"synth/rundir"
	"synth/sandbox"
	"synth/schemas"
	"synth/sources/sample"
)

// TestProveComposedDropsAHollowChain: the generate stage keeps a composed
// task every skip-step solution of which fails, and drops, with its
// reason for tasks.report.md, the same task with a step that does nothing
// put in its chain (its skip passes); a task that is not composed passes
// through unproven.
func TestProveComposedDropsAHollowChain(t *testing.T) {
	needPython(t)
	files, err := sample.Files(1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fs := &fileSet{path: map[string]string{}}
	var ins []generators.Input
	for _, f := range files[:8] {
		p := filepath.Join(dir, f.Name)
		if err := os.WriteFile(p, f.Body, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(f.Body)
		id := hex.EncodeToString(sum[:])
		fs.path[id] = p
		ins = append(ins, generators.Input{File: schemas.File{ID: id, Name: f.Name, Type: f.Type}, Path: p})
	}
	made, err := template.New(template.Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.chain"}, PerFile: 3,
		Composed: template.Composed{Share: 0.34}}).Generate(context.Background(), ins)
	if err != nil || len(made) == 0 {
		t.Fatalf("no composed task on the corpus's first files (%v)", err)
	}
	good := made[0]
	bad := good
	ref := *good.Reference
	ref.Steps = append([]schemas.RefStep{ref.Steps[0], {Code: "df = df[df.index == df.index]"}}, ref.Steps[1:]...)
	bad.ID, bad.Reference, bad.Steps = "hollow", &ref, good.Steps+1
	single := schemas.Task{ID: "single", Reference: good.Reference}
	b := checkstest.Backend(t, 2)
	m := &taskMaker{cfg: config.Default(), log: io.Discard, sandbox: func() (sandbox.Backend, error) { return b, nil }}
	kept, err := m.proveComposed(context.Background(), []schemas.Task{good, bad, single}, fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 2 || kept[0].ID != good.ID || kept[1].ID != "single" {
		t.Errorf("kept %d tasks, want the sound chain and the single-step task", len(kept))
	}
	if why := m.dropped["hollow"]; !strings.HasPrefix(why, template.DropSkipPasses) || !strings.Contains(why, "skip_1") {
		t.Errorf("the hollow chain's reason: %q, want %s naming skip_1", why, template.DropSkipPasses)
	}
}

// TestBuildTakesComposedTasks: a build writes composed tasks, each with
// its steps, into tasks.jsonl and the benchmark, which proves them as any
// other (its validate stage keeps every one whose reference passes).
func TestBuildTakesComposedTasks(t *testing.T) {
	needPython(t)
	files, err := sample.Files(1)
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	for _, f := range files {
		switch f.Name {
		case "sales.csv", "customers.csv", "loan_applications.csv", "shipments.csv", "stock_prices.csv", "scores.tsv":
			if err := os.WriteFile(filepath.Join(src, f.Name), f.Body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cfg := quickConfig()
	cfg.Sources.Specs = []string{"local:" + src}
	cfg.Tasks.Templates = []string{"table.chain", "table.chainjoin", "table.sort"}
	cfg.Tasks.Composed = generators.ComposedConfig{Share: 1, Depth: 3}
	cfg.Bench.Fraction = 0.5
	dir := filepath.Join(t.TempDir(), "out")
	var log strings.Builder
	sum, err := Build(context.Background(), cfg, Options{Out: dir, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	written := 0
	readLines(t, filepath.Join(dir, rundir.Tasks), func(schemas.Task) { written++ })
	if g := sum.Stages[1]; g.Stage != "generate" || g.Out != written {
		t.Errorf("the generate line %+v, want %d tasks out (tasks.jsonl's)", g, written)
	}
	for _, name := range []string{rundir.Tasks, filepath.Join("bench", "tasks.jsonl")} {
		var composed int
		readLines(t, filepath.Join(dir, name), func(task schemas.Task) {
			if task.Steps >= 3 {
				composed++
			} else if task.Steps != 0 {
				t.Errorf("%s: task %s has %d steps", name, task.ID, task.Steps)
			}
		})
		if composed == 0 {
			t.Errorf("%s holds no composed task\n%s", name, log.String())
		}
	}
}

// readLines calls f on each JSON line of path.
func readLines(t *testing.T, path string, f func(schemas.Task)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var task schemas.Task
		if err := json.Unmarshal([]byte(line), &task); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		f(task)
	}
}
