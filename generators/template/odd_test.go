package template

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/checks"
	"synth/generators"
	"synth/schemas"
)

// TestOddFiles feeds files that are empty, truncated or not what their type
// says: the generator must write no task for them rather than fail or panic.
func TestOddFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]struct{ typ, body string }{
		"empty.csv":   {"csv", ""},
		"header.csv":  {"csv", "a,b,c\n"},
		"one.csv":     {"csv", "a,b\n1,2\n"},
		"ragged.csv":  {"csv", "a,b\n1\n2,3,4\n\"x,5\n"},
		"weird.csv":   {"csv", "name %s,{out}\n\"q'\",1\nr,2\nr,2\ns,3\nt,4\nu,5\n"},
		"quotes.csv":  {"csv", "name's \"%d\",value\n\"q'\",1\nr,2\nr,2\ns,3\nt,4\nu,5\nv,6\n"},
		"bad.xlsx":    {"xlsx", "not a zip"},
		"bad.png":     {"png", "\x89PNG garbage"},
		"bad.wav":     {"wav", "RIFF\x00\x00"},
		"bad.pdf":     {"pdf", "%PDF-1.4 nothing"},
		"bad.docx":    {"docx", "PK nothing"},
		"bad.json":    {"json", "{\"a\": 1}"},
		"empty.txt":   {"txt", ""},
		"bad.parquet": {"parquet", "PAR1xxxxPAR1"},
		"bad.mp3":     {"mp3", "\xff\xfb"},
		"bad.webp":    {"webp", "RIFF"},
		"bad.gif":     {"gif", "GIF89a"},
	}
	var ins []generators.Input
	for name, f := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, generators.Input{File: schemas.File{ID: name, Name: name, Type: f.typ}, Path: p})
	}
	tasks, err := New(Options{Seed: 1, Strict: true}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, task := range tasks {
		if len(task.Files) == 0 {
			continue
		}
		if task.Files[0].Name != "quotes.csv" {
			t.Errorf("%s wrote a task for the broken file %s", task.Generator, task.Files[0].Name)
		}
		n++
	}
	if n == 0 {
		t.Error("no task for quotes.csv, a small but valid table")
	}
}

// TestInvalidTaskLeftOut holds Generate to what a template bug on one odd
// file costs: that file's task, not the stage. A CSV whose first header
// cell is empty (pandas' index written out, as real files have) once made
// table.sort write a check sorted by no column.
func TestInvalidTaskLeftOut(t *testing.T) {
	dir := t.TempDir()
	body := ",id,diet,pulse,time,kind\n"
	for i := range 30 {
		body += fmt.Sprintf("%d,%d,%s,%d,%d min,%s\n", i, i/3+1, []string{"low fat", "no fat"}[i%2], 80+i%7*3, 1+i%3*14, []string{"rest", "walking", "running"}[i%3])
	}
	p := filepath.Join(dir, "exercise.csv")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ins := []generators.Input{{File: schemas.File{ID: "ex", Name: "exercise.csv", Type: "csv"}, Path: p}}
	for seed := int64(1); seed <= 8; seed++ {
		tasks, err := New(Options{Seed: seed, Langs: []string{"en"}}).Generate(context.Background(), ins)
		if err != nil {
			t.Fatalf("seed %d: Generate failed on one odd file: %v", seed, err)
		}
		for _, task := range tasks {
			if err := checks.Validate(&task); err != nil {
				t.Errorf("seed %d: %s: an invalid task was kept: %v", seed, task.Generator, err)
			}
		}
	}
}

// TestMixedTypesNoCount: a label column whose cells mix numbers and text
// (an xlsx column of 0, 1, TRUE and words) has no single count of distinct
// values, since pandas keeps each cell's type and 1 == True; no template
// counts or groups it.
func TestMixedTypesNoCount(t *testing.T) {
	dir := t.TempDir()
	body := "maybe,kind\n"
	vals := []string{"0", "1", "cabbage", "true", "F", "False", "1", "0", "x", "2"}
	for i := range 40 {
		body += fmt.Sprintf("%s,%s\n", vals[i%len(vals)], []string{"a", "b", "c", "d"}[i%4])
	}
	p := filepath.Join(dir, "types.csv")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ins := []generators.Input{{File: schemas.File{ID: "ty", Name: "types.csv", Type: "csv"}, Path: p}}
	n := 0
	for seed := int64(1); seed <= 12; seed++ {
		tasks, err := New(Options{Seed: seed, Langs: []string{"en"}, Include: []string{"table.nunique"}, Strict: true}).Generate(context.Background(), ins)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range tasks {
			n++
			if strings.Contains(task.Query, "maybe") {
				t.Errorf("seed %d: %q counts a column of mixed types", seed, task.Query)
			}
		}
	}
	if n == 0 {
		t.Error("no nunique task on the text column")
	}
}
