package template

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"synth/checks/checkstest"
	"testing"

	"synth/checks"
	"synth/proof"
	"synth/pyenv"
	"synth/pyenv/pyenvtest"
	"synth/sandbox"
	"synth/schemas"
)

// TestBenchTestsPy lays tasks out as a benchmark does (one root with data/
// and output/), plays one reference per template into it, and runs the
// exported tests.py with Python: every reference trajectory must pass, and
// every empty trajectory on an empty output/ must fail.
func TestBenchTestsPy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs references in the sandbox")
	}
	have, err := ProbeModules(context.Background(), pyenvtest.Python(t), Modules())
	if err != nil {
		t.Fatalf("probing the sandbox's modules: %v", err)
	}
	b := checkstest.Backend(t, 0)
	ins, _ := corpus(t)
	all, err := New(Options{Seed: 2, PythonModules: have, Strict: true}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	var tasks []schemas.Task
	seen := map[string]bool{}
	for _, task := range all {
		if !seen[task.Generator] {
			seen[task.Generator] = true
			tasks = append(tasks, task)
		}
	}
	root := t.TempDir()
	for _, d := range []string{"data", "output"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, in := range ins {
		body, err := os.ReadFile(in.Path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "data", in.File.Name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	sb, err := b.Open(ctx, sandbox.Spec{Workspace: root})
	if err != nil {
		t.Fatal(err)
	}
	var tests []checks.BenchTest
	for i, task := range tasks {
		for _, st := range task.Reference.Steps {
			res, err := sb.Exec(ctx, st.Code)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != schemas.StatusOK {
				t.Errorf("%s: reference step: %s\n%s", task.Generator, res.Status, proof.LastLines(res.Output, 5))
			}
		}
		tests = append(tests, checks.BenchTest{Index: fmt.Sprint(i + 1), Checks: task.Checks})
	}
	sb.Close()
	if err := os.WriteFile(filepath.Join(root, "tests.py"), checks.TestsPy(tests), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(answers []string) []string {
		var trajs [][]map[string]string
		for i, a := range answers {
			trajs = append(trajs, []map[string]string{{"role": "user", "content": tasks[i].Query}, {"role": "assistant", "content": "Finished: " + a}})
		}
		js, _ := json.Marshal(trajs)
		if err := os.WriteFile(filepath.Join(root, "trajs.json"), js, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(pyenv.Sandbox.Python(), "-c", `import json, tests
for i, tr in enumerate(json.load(open("trajs.json")), 1):
    try:
        getattr(tests, "test_task_%d" % i)(tr)
        print("PASS")
    except AssertionError as e:
        print("FAIL " + str(e).replace("\n", " "))
`)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tests.py: %v\n%s", err, out)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	var refs []string
	for _, task := range tasks {
		refs = append(refs, task.Reference.Answer)
	}
	for i, line := range run(refs) {
		if line != "PASS" {
			t.Errorf("reference of %s fails tests.py: %s", tasks[i].Generator, line)
		}
	}
	if err := os.RemoveAll(filepath.Join(root, "output")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "output"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, line := range run(make([]string, len(tasks))) {
		if line == "PASS" {
			t.Errorf("an empty trajectory passes tests.py for %s", tasks[i].Generator)
		}
	}
	t.Logf("%d tasks, one per template, checked through tests.py", len(tasks))
}
