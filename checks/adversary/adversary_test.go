package adversary

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"synth/checks/checkstest"
	"testing"

	"synth/checks"
	"synth/pyenv"
	"synth/pyenv/pyenvtest"
	"synth/sandbox"
	"synth/schemas"
)

func intp(n int) *int { return &n }

// fixture runs checks/testdata/workspace.py in a temporary directory and
// adds a produced module; it returns the directory.
func fixture(t *testing.T) string {
	t.Helper()
	pyenvtest.Python(t)
	dir := t.TempDir()
	script, _ := filepath.Abs("../testdata/workspace.py")
	cmd := exec.Command(pyenv.Sandbox.Python(), script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("workspace.py: %v\n%s", err, out)
	}
	mod := "def square(x):\n    return x * x\n\nclass Box:\n    def __init__(self, v):\n        self.v = v\n\n    def twice(self):\n        return Box(self.v * 2)\n"
	if err := os.WriteFile(filepath.Join(dir, "output", "m.py"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func backend(t *testing.T) sandbox.Backend { return checkstest.Backend(t, 0) }

// files lists dir's data/ and output/ files as a case's files.
func files(t *testing.T, dir string, keep func(string) bool) []sandbox.Input {
	t.Helper()
	var out []sandbox.Input
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if (strings.HasPrefix(rel, "data/") || strings.HasPrefix(rel, "output/")) && keep(rel) {
			out = append(out, sandbox.Input{Name: rel, Path: p})
		}
		return nil
	})
	return out
}

// hostileTasks are one task per kind of check the templates use, each
// with the output its reference made in the fixture.
var hostileTasks = []struct {
	name   string
	task   schemas.Task
	inputs []string // under data/
}{
	{"answer number", schemas.Task{Checks: []schemas.Check{{Kind: "answer", Number: &schemas.NumberMatch{Value: 1234.5, RelTol: 1e-3}}}}, []string{"sales.csv"}},
	{"answer words", schemas.Task{Checks: []schemas.Check{{Kind: "answer", ContainsAll: []string{"N"}, NoneOf: []string{"S", "E"}}}}, []string{"sales.csv"}},
	{"answer options", schemas.Task{Checks: []schemas.Check{{Kind: "answer", ContainsAny: []string{"October", "2023-10", "Oct 2023"}, NoneOf: []string{"November", "September"}}}}, []string{"sales.csv"}},
	{"table", schemas.Task{Outputs: []string{"output/clean.csv"}, Checks: []schemas.Check{{Kind: "table", Path: "output/clean.csv", Rows: intp(3), ColumnsInclude: []string{"region", "sales"}, NoDuplicates: true, NoNulls: true, SortedBy: &schemas.SortKey{Column: "sales", Descending: true}}}}, []string{"sales.csv"}},
	{"image", schemas.Task{Outputs: []string{"output/rot.png"}, Checks: []schemas.Check{{Kind: "image", Path: "output/rot.png", Width: intp(80), Height: intp(120), Compare: &schemas.ImageCompare{Ref: "data/shapes.png", Transform: "rotate:90", MinSimilarity: 0.9}}}}, []string{"shapes.png"}},
	{"audio", schemas.Task{Outputs: []string{"output/short.wav"}, Checks: []schemas.Check{{Kind: "audio", Path: "output/short.wav", Duration: &schemas.Range{Min: 0.95, Max: 1.05}, ShorterThan: "data/tone.wav"}}}, []string{"tone.wav"}},
	{"pickle", schemas.Task{Outputs: []string{"output/lr.pkl"}, Checks: []schemas.Check{
		{Kind: "pickle", Path: "output/lr.pkl", HasMethod: "predict"},
		{Kind: "python", Code: "import pickle\nmodel = pickle.load(open('output/lr.pkl', 'rb'))\npred = [float(p) for p in model.predict([[2.0], [3.0]])]\nassert [round(p, 6) for p in pred] == [2.0, 3.0], 'predictions %r' % pred"},
	}}, []string{"sales.csv"}},
	{"module", schemas.Task{Outputs: []string{"output/m.py"}, Checks: []schemas.Check{{Kind: "python", Code: "m = load_module('output/m.py')\nf = getattr(m, 'square', None)\nassert callable(f), 'no square'\nfor x, want in [(3, 9), (-2, 4), (0, 0)]:\n    assert f(x) == want, 'square(%r) is %r' % (x, f(x))\nb = m.Box(4).twice()\nassert b.v == 8, 'Box(4).twice().v is %r' % (b.v,)"}}}, []string{"sales.csv"}},
	{"html", schemas.Task{Outputs: []string{"output/page.html"}, Checks: []schemas.Check{{Kind: "python", Code: "els = html_elements('output/page.html')\nassert any(e['tag'] == 'h1' and 'Sales report' in e['text'] for e in els), 'no h1'\nassert any(e['tag'] == 'table' for e in els), 'no table'"}}}, []string{"sales.csv"}},
}

// referenceAnswers are the fixture's right answers, by task name.
var referenceAnswers = map[string]string{
	"answer number":  "Finished: the total is 1,234.5.",
	"answer words":   "Finished: region N sells the most.",
	"answer options": "Finished: the peak month was October 2023.",
}

// TestAdversariesFailEveryKindOfCheck runs every adversary against a task
// per kind of check, in the real sandbox: each must fail, and the
// reference outputs must pass. The shadow modules and forged code
// adversaries are the ones that forged verdicts when checks ran in the
// rollout's workspace and imported its modules.
func TestAdversariesFailEveryKindOfCheck(t *testing.T) {
	dir := fixture(t)
	b := backend(t)
	ctx := context.Background()
	for _, tc := range hostileTasks {
		t.Run(tc.name, func(t *testing.T) {
			task := tc.task
			task.ID = tc.name
			var inputs []sandbox.Input
			for _, n := range tc.inputs {
				inputs = append(inputs, sandbox.Input{Name: n, Path: filepath.Join(dir, "data", n)})
			}
			want := map[string]bool{}
			for _, p := range OutputPaths(&task) {
				want[p] = true
			}
			ref := checks.Case{Checks: task.Checks, Answer: referenceAnswers[tc.name],
				Files: files(t, dir, func(p string) bool { return strings.HasPrefix(p, "data/") || want[p] })}
			rs, err := checks.Verify(ctx, b, []checks.Case{ref})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs[0] {
				if !r.OK {
					t.Fatalf("the reference fails: %s: %s", r.Kind, r.Message)
				}
			}
			res, err := Prove(ctx, b, &task, inputs)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != len(All()) {
				t.Fatalf("%d results for %d adversaries", len(res), len(All()))
			}
			for _, r := range res {
				if r.Passed {
					t.Errorf("adversary %s passes: %+v", r.Adversary, r.Checks)
				}
				// The adversaries that apply to any task ran, and their
				// verdict is recorded check by check.
				if slices.Contains(everyTask, r.Adversary) && (!r.Applied || len(r.Checks) != len(task.Checks)) {
					t.Errorf("adversary %s did not run: applied=%v, %d results for %d checks", r.Adversary, r.Applied, len(r.Checks), len(task.Checks))
				}
			}
		})
	}
}

// TestProveScoresAPassingAdversary: against weak tasks, in the real
// sandbox, the adversaries that pass every check are scored as passing
// (so the task is dropped) and the others are not.
func TestProveScoresAPassingAdversary(t *testing.T) {
	dir := fixture(t)
	b := backend(t)
	inputs := []sandbox.Input{{Name: "sales.csv", Path: filepath.Join(dir, "data", "sales.csv")}}
	cases := []struct {
		name   string
		task   schemas.Task
		passed []string
	}{
		// A rollout that writes no output/2.csv passes; the file
		// adversaries write one at every path a check names.
		{"nothing asked", schemas.Task{ID: "absent", Checks: []schemas.Check{{Kind: "file", Path: "output/2.csv", Exists: bp(false)}}},
			[]string{Empty, "shotgun"}},
		// Any file at output/1.csv passes.
		{"a file asked", schemas.Task{ID: "exists", Outputs: []string{"output/1.csv"}, Checks: []schemas.Check{{Kind: "file", Path: "output/1.csv"}}},
			[]string{"copy_input", "random_bytes", "empty_table", "shadow_modules", "forged_code"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Prove(context.Background(), b, &tc.task, inputs)
			if err != nil {
				t.Fatal(err)
			}
			var passed []string
			for _, r := range res {
				if r.Passed {
					passed = append(passed, r.Adversary)
				}
			}
			if !slices.Equal(passed, tc.passed) {
				t.Fatalf("passing adversaries %v, want %v: %+v", passed, tc.passed, res)
			}
		})
	}
}

func bp(b bool) *bool { return &b }
