package template

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/generators"
	"synth/schemas"
)

// With FilesOnly the generator writes no task that reads no file; without
// it, it does, even for no file at all.
func TestFilesOnlyWritesNoFilelessTask(t *testing.T) {
	ctx := context.Background()
	all, err := New(Options{Seed: 1, Langs: []string{"en"}}).Generate(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("no task that reads no file without FilesOnly")
	}
	ins := untaskedInputs(t)
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, FilesOnly: true}).Generate(ctx, ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) == 0 {
		t.Fatal("FilesOnly wrote no task for a good table either")
	}
	for _, task := range tasks {
		if len(task.Files) == 0 {
			t.Errorf("FilesOnly wrote %s, which reads no file", task.Generator)
		}
	}
}

// untaskedInputs are a good table, a table too small for any template and
// a file of a type no template reads.
func untaskedInputs(t *testing.T) []generators.Input {
	dir := t.TempDir()
	var good strings.Builder
	good.WriteString("region,amount,units\n")
	for i := range 12 {
		fmt.Fprintf(&good, "%s,%d,%d\n", []string{"north", "south", "east"}[i%3], 10+i*3, i)
	}
	files := []struct{ name, typ, body string }{
		{"sales.csv", "csv", good.String()},
		{"tiny.csv", "csv", "a,b\n1,2\n"},
		{"model.stl", "stl", "solid x\nendsolid x\n"},
	}
	var ins []generators.Input
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, generators.Input{File: schemas.File{ID: "id-" + f.name, Name: f.name, Type: f.typ}, Path: p})
	}
	return ins
}

// Untasked names every file without a task, with why; a file with a task
// is not named.
func TestUntaskedSaysWhy(t *testing.T) {
	ctx := context.Background()
	ins := untaskedInputs(t)
	for _, tc := range []struct {
		name string
		opts Options
		want map[string]string // file -> reason
	}{
		{"every template", Options{Seed: 1, Langs: []string{"en"}},
			map[string]string{"tiny.csv": generators.ReasonUnusable, "model.stl": generators.ReasonUnsupportedType}},
		{"images only", Options{Seed: 1, Langs: []string{"en"}, Include: []string{"image."}},
			map[string]string{"sales.csv": generators.ReasonExcluded, "tiny.csv": generators.ReasonUnusable, "model.stl": generators.ReasonUnsupportedType}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gen := New(tc.opts)
			if _, err := gen.Generate(ctx, ins); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, u := range gen.(generators.Explainer).Untasked() {
				got[u.File.Name] = u.Reason
				if u.Detail == "" {
					t.Errorf("%s: %s without a detail", u.File.Name, u.Reason)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("untasked %v, want %v", got, tc.want)
			}
		})
	}
}

// whyNone tells a missing module from templates that found nothing to ask.
func TestWhyNoneModules(t *testing.T) {
	all := map[string]bool{}
	for _, m := range Modules() {
		all[m] = true
	}
	without := func(m string) map[string]bool {
		have := map[string]bool{}
		for k := range all {
			have[k] = k != m
		}
		return have
	}
	for _, tc := range []struct {
		typ    string
		have   map[string]bool
		reason string
		detail string
	}{
		{"mp3", without("pydub"), generators.ReasonModuleMissing, "pydub"},
		{"parquet", without("pyarrow"), generators.ReasonModuleMissing, "pyarrow"},
		{"docx", without("docx"), generators.ReasonModuleMissing, "docx"},
		{"mp3", all, generators.ReasonNoTemplateFits, "mp3"},
		{"csv", all, generators.ReasonNoTemplateFits, "csv"},
	} {
		g := New(Options{PythonModules: tc.have}).(*generator)
		reason, detail := g.whyNone(tc.typ, "")
		if reason != tc.reason || !strings.Contains(detail, tc.detail) {
			t.Errorf("%s: %s (%s), want %s naming %s", tc.typ, reason, detail, tc.reason, tc.detail)
		}
	}
}
