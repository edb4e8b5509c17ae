package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/checks/checkstest"
	"synth/config"
	"synth/generators"
	"synth/generators/template"
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
