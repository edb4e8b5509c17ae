package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"synth/agent"
	"synth/bench"
	"synth/config"
	"synth/generators"
	"synth/internal/duckdbtest"
	"synth/internal/testenv"
	"synth/pyenv"
	"synth/pyenv/pyenvtest"
	"synth/rollout"
	"synth/rundir"
	"synth/sandbox"
	"synth/schemas"
)

var python = pyenv.Sandbox.Python()

// needPython stops the test (see pyenvtest) when the locked environment is
// not built.
func needPython(t *testing.T) {
	t.Helper()
	pyenvtest.Python(t)
}

// quickConfig is the quickstart, smaller: fewer files' worth of templates.
func quickConfig() config.Config {
	cfg := config.Default()
	cfg.Tasks.PerFile = 1
	cfg.Tasks.Langs = []string{"en"}
	// Composed tasks have tests of their own (TestBuildTakesComposedTasks);
	// here each table file's one task stays a single-step one.
	cfg.Tasks.Composed = generators.ComposedConfig{}
	return cfg
}

// built is one quickstart build shared by the tests that only read it.
var built struct {
	dir string
	sum *Summary
	err error
}

func buildOnce(t *testing.T) (string, *Summary) {
	t.Helper()
	needPython(t)
	if built.dir == "" {
		dir, err := os.MkdirTemp("", "synth-build-")
		if err != nil {
			t.Fatal(err)
		}
		built.dir = filepath.Join(dir, "out")
		var log strings.Builder
		built.sum, built.err = Build(context.Background(), quickConfig(), Options{Out: built.dir, Log: &log})
		if built.err != nil {
			built.err = fmt.Errorf("%w\nlog:\n%s", built.err, log.String())
		}
	}
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.dir, built.sum
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(filepath.Dir(built.dir))
	}
	os.Exit(code)
}

func TestBuildParquetReadsBackInDuckDB(t *testing.T) {
	duckdbtest.Need(t)
	dir, sum := buildOnce(t)
	if len(sum.Shards) == 0 {
		t.Fatalf("no Parquet shard written; stages: %+v", sum.Stages)
	}
	glob := duckdbtest.Quote(filepath.Join(dir, "dataset", "data", "*.parquet"))
	rows := duckdbtest.Query(t, `SELECT id, passed, len(messages) AS n,
		messages[1].role AS first_role,
		list_filter(messages, m -> m.role = 'assistant')[-1].content AS last_assistant
		FROM read_parquet(`+glob+`)`)
	if len(rows) == 0 {
		t.Fatal("DuckDB read no rows")
	}
	for _, r := range rows {
		if r["passed"] != true {
			t.Errorf("row %v did not pass its checks", r["id"])
		}
		if r["first_role"] != "system" {
			t.Errorf("row %v: first message is %v, want the system prompt", r["id"], r["first_role"])
		}
		if last, _ := r["last_assistant"].(string); !strings.HasPrefix(last, "Finished:") {
			t.Errorf("row %v: last assistant message %q does not start with Finished:", r["id"], last)
		}
	}
	types := duckdbtest.Query(t, `SELECT typeof(messages) AS t FROM read_parquet(`+glob+`) LIMIT 1`)
	if got := strings.ReplaceAll(fmt.Sprint(types[0]["t"]), `"`, ""); got != "STRUCT(role VARCHAR, content VARCHAR)[]" {
		t.Errorf("messages has type %s, want a list of {role, content} structs", got)
	}
}

// TestBenchUnitTestsDiscriminate runs the exported unit_test/tests.py with
// Python from the bench root: it passes for the reference trajectories (after
// their code ran there) and fails for an empty one.
func TestBenchUnitTestsDiscriminate(t *testing.T) {
	dir, _ := buildOnce(t)
	src := filepath.Join(dir, "bench")
	tasks, err := bench.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) == 0 {
		t.Fatal("the benchmark has no tasks")
	}
	refs := readPyBenchTrajectories(t, filepath.Join(src, bench.ReferenceFile))
	if len(refs) != len(tasks) {
		t.Fatalf("%d reference trajectories for %d tasks", len(refs), len(tasks))
	}

	// Reference: run each trajectory's code in a copy of the bench root.
	root := testenv.CopyTree(t, src, "bench")
	b, err := sandbox.New(sandbox.Config{Residents: rollout.Residents()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	format := agent.NewPyBench()
	for _, ref := range refs {
		sb, err := b.Open(context.Background(), sandbox.Spec{Workspace: root})
		if err != nil {
			t.Fatal(err)
		}
		// The scripted teacher may make a mistake and recover: a failed
		// cell must be followed by one that works, and the last must work.
		failed := ""
		for _, m := range ref.Messages {
			if act := format.Parse(m); m.Role == schemas.RoleAssistant && act.Code != "" {
				res, err := sb.Exec(context.Background(), act.Code)
				if err != nil {
					t.Fatalf("task %s: %v", ref.Index, err)
				}
				if res.Status != schemas.StatusOK {
					if failed != "" {
						t.Fatalf("task %s: two reference cells in a row failed: %s", ref.Index, res.Output)
					}
					failed = res.Output
					continue
				}
				failed = ""
			}
		}
		if failed != "" {
			t.Fatalf("task %s: the last reference cell failed: %s", ref.Index, failed)
		}
		sb.Close()
	}
	passed := runUnitTests(t, root, refs)
	for _, r := range refs {
		if !passed[r.Index] {
			t.Errorf("task %s: tests.py fails the reference trajectory", r.Index)
		}
	}

	// Empty: nothing ran, the answer is empty.
	empty := testenv.CopyTree(t, src, "bench")
	var blanks []pyTrajectory
	for _, r := range refs {
		blanks = append(blanks, pyTrajectory{Index: r.Index, Messages: []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: "}}})
	}
	for idx, ok := range runUnitTests(t, empty, blanks) {
		if ok {
			t.Errorf("task %s: tests.py passes an empty trajectory", idx)
		}
	}
}

type pyTrajectory struct {
	Index    string            `json:"index"`
	Messages []schemas.Message `json:"messages"`
}

func readPyBenchTrajectories(t *testing.T, path string) []pyTrajectory {
	t.Helper()
	out, err := rundir.ReadAll[pyTrajectory](path)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runUnitTests calls test_task_<index>(messages) for each trajectory, as
// PyBench's entry point does, from root, and returns which passed.
func runUnitTests(t *testing.T, root string, trajs []pyTrajectory) map[string]bool {
	t.Helper()
	in, _ := json.Marshal(trajs)
	if err := os.WriteFile(filepath.Join(root, "trajs.json"), in, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
import json, sys
sys.path.insert(0, "unit_test")
import tests
result = {}
for tr in json.load(open("trajs.json")):
    try:
        getattr(tests, "test_task_" + tr["index"])(tr["messages"])
        result[tr["index"]] = True
    except Exception as e:
        result[tr["index"]] = False
print("RESULT" + json.dumps(result))
`
	cmd := exec.Command(python, "-c", script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "MPLBACKEND=Agg")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tests.py: %v\n%s", err, out)
	}
	_, js, ok := strings.Cut(string(out), "RESULT")
	if !ok {
		t.Fatalf("tests.py printed no result:\n%s", out)
	}
	res := map[string]bool{}
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatalf("tests.py result: %v\n%s", err, out)
	}
	return res
}

func TestBuildTwiceDoesNoWork(t *testing.T) {
	dir, first := buildOnce(t)
	before, _ := os.ReadFile(filepath.Join(dir, rundir.Trajectories))
	sum, err := Build(context.Background(), quickConfig(), Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.UpToDate {
		t.Fatalf("second build was not up to date: %+v", sum.Stages)
	}
	after, _ := os.ReadFile(filepath.Join(dir, rundir.Trajectories))
	if string(before) != string(after) {
		t.Fatal("the second build changed trajectories.jsonl")
	}
	if len(sum.Shards) != len(first.Shards) {
		t.Fatalf("shards %v, want %v", sum.Shards, first.Shards)
	}
}

func TestBuildRefusesAnotherConfig(t *testing.T) {
	dir, _ := buildOnce(t)
	cfg := quickConfig()
	cfg.Seed = 99
	_, err := Build(context.Background(), cfg, Options{Out: dir})
	if !errors.Is(err, ErrConfigChanged) || !strings.Contains(err.Error(), "use another -o") {
		t.Fatalf("err = %v, want ErrConfigChanged naming the fix", err)
	}
}

func TestBuildResumesAfterInterrupt(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	cfg := quickConfig()
	cfg.Concurrency = 1
	cfg.Tasks.Templates = []string{"table.sort", "table.dedup", "text."}

	// Interrupt as soon as the first training trajectory is journaled,
	// looking every few milliseconds (a loop without a pause spent a core,
	// a quarter of the package's CPU, reading the journal).
	ctx, cancel := context.WithCancel(context.Background())
	stop := make(chan struct{})
	go func() {
		defer close(stop)
		p := filepath.Join(dir, rundir.Trajectories)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if b, err := os.ReadFile(p); err == nil && strings.Count(string(b), "\n") >= 1 {
				cancel()
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	_, err := Build(ctx, cfg, Options{Out: dir})
	cancel()
	<-stop
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "run the same command again") {
		t.Fatalf("interrupted build: err = %v", err)
	}
	partial, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if len(partial) == 0 {
		t.Fatal("nothing was journaled before the interrupt")
	}

	sum, err := Build(context.Background(), cfg, Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	all, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	seen := map[string]bool{}
	for _, tr := range all {
		if seen[tr.ID] {
			t.Fatalf("trajectory %s journaled twice", tr.ID)
		}
		seen[tr.ID] = true
	}
	for _, tr := range partial {
		if !seen[tr.ID] {
			t.Fatalf("trajectory %s from before the interrupt was lost", tr.ID)
		}
	}
	if len(sum.Shards) == 0 || len(all) <= len(partial) {
		t.Fatalf("resumed build: %d trajectories (had %d), shards %v", len(all), len(partial), sum.Shards)
	}
}

// A run made under one Python environment does not go on under another:
// the resume stops, naming both, before any stage runs.
func TestBuildRefusesAnotherEnvironment(t *testing.T) {
	src, _ := buildOnce(t)
	dir := filepath.Join(t.TempDir(), "out")
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	path := filepath.Join(dir, rundir.RunInfo)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var info map[string]any
	if err := json.Unmarshal(b, &info); err != nil {
		t.Fatal(err)
	}
	py := info["python"].(map[string]any)
	if py["fingerprint"] == nil || py["lock"] != pyenv.Sandbox.ID() {
		t.Fatalf("run.json does not record the locked environment: %v", py)
	}
	py["fingerprint"], py["lock"], py["executable"] = "00000000deadbeef", "sandbox-000000000000", "/opt/other/bin/python"
	b, _ = json.Marshal(info)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, rundir.Trajectories))
	_, err = Build(context.Background(), quickConfig(), Options{Out: dir})
	if !errors.Is(err, ErrEnvironmentChanged) || !errors.Is(err, ErrConfigChanged) {
		t.Fatalf("err = %v, want ErrEnvironmentChanged", err)
	}
	for _, want := range []string{"sandbox-000000000000", pyenv.Sandbox.ID(), "/opt/other/bin/python", "use another -o"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not name %q: %v", want, err)
		}
	}
	after, _ := os.ReadFile(filepath.Join(dir, rundir.Trajectories))
	if string(before) != string(after) {
		t.Error("the refused resume changed trajectories.jsonl")
	}
	card, err := os.ReadFile(filepath.Join(src, "dataset", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(card), "`"+pyenv.Sandbox.ID()+"`") {
		t.Errorf("the dataset card does not name the locked environment %s", pyenv.Sandbox.ID())
	}
}
