package template

import (
	"context"
	"os/exec"
	"sort"
	"testing"

	"synth/sandbox"
)

// TestConformance proves every task the templates write over the built-in
// corpus: the reference passes, an empty rollout fails, and a mutant fails.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every template in the sandbox")
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import pandas, matplotlib, PIL, sklearn, sympy").Run(); err != nil {
		t.Skipf("needs /usr/bin/python3 with the core packages: %v", err)
	}
	b, err := sandbox.New(sandbox.Config{Slots: 4})
	if err != nil {
		t.Skipf("no sandbox: %v", err)
	}
	defer b.Close()
	have, err := ProbeModules(context.Background(), "/usr/bin/python3", Modules())
	if err != nil {
		t.Fatal(err)
	}
	_, skipped := Available(have)
	for _, s := range skipped {
		t.Log(s)
	}
	ins, paths := corpus(t)
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, PythonModules: have}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Validate(context.Background(), b, tasks, paths, 2)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range v.Why {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	byID := map[string]string{}
	for _, task := range tasks {
		byID[task.ID] = task.Generator
	}
	for _, id := range ids {
		t.Errorf("%s %s: %s", id, byID[id], v.Why[id])
	}
	t.Logf("%d tasks, %d kept, dropped %v", len(tasks), len(v.Kept), v.Dropped)
}
