//go:build manual

package template

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/generators"
	"synth/schemas"
)

// TestRoleAudit measures a directory of real tables, never committed:
// SYNTH_ROLE_AUDIT_DIR names it. It writes the templates' tasks on its
// files (or reads them from the JSON lines file SYNTH_ROLE_AUDIT_TASKS,
// written by another version), profiles every file, and counts the
// references that misuse a role by that profile.
//
// It is manual by nature (it needs files from outside the project), so it
// sits behind the manual build tag:
//
//	SYNTH_ROLE_AUDIT_DIR=/path/to/tables go test -tags manual -run TestRoleAudit -v ./generators/template/
func TestRoleAudit(t *testing.T) {
	dir := os.Getenv("SYNTH_ROLE_AUDIT_DIR")
	if dir == "" {
		t.Fatal("SYNTH_ROLE_AUDIT_DIR is not set: name a directory of tables to measure")
	}
	ins := auditInputs(t, dir)
	var tasks []schemas.Task
	if p := os.Getenv("SYNTH_ROLE_AUDIT_TASKS"); p != "" {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var task schemas.Task
			if err := json.Unmarshal([]byte(line), &task); err != nil {
				t.Fatal(err)
			}
			tasks = append(tasks, task)
		}
	} else {
		// One file at a time, as a build's per-file budget sees them.
		for _, in := range ins {
			ts, err := New(Options{Seed: 1, Langs: []string{"en"}}).Generate(context.Background(), []generators.Input{in})
			if err != nil {
				t.Errorf("%s: %v", in.File.Name, err)
				continue
			}
			tasks = append(tasks, ts...)
		}
	}
	roles := map[string]map[string]role{}
	totals := map[string][]string{}
	for _, in := range ins {
		tab, err := readTable(in.Path, in.File.Type)
		if err != nil {
			continue
		}
		roles[in.File.Name] = map[string]role{}
		for _, c := range tab.columns() {
			roles[in.File.Name][c.name] = c.role
		}
		for _, labels := range tab.aggregateRows() {
			totals[in.File.Name] = append(totals[in.File.Name], labels...)
		}
		if len(totals[in.File.Name]) > 0 {
			t.Logf("%s: aggregate rows %q", in.File.Name, totals[in.File.Name])
		}
		if tab.headerless() {
			t.Logf("%s: headerless (names %q)", in.File.Name, tab.header)
		}
	}
	bad, checked := 0, 0
	byKind := map[string]int{}
	for i := range tasks {
		task := &tasks[i]
		if len(task.Files) != 1 || roles[task.Files[0].Name] == nil {
			continue
		}
		checked++
		if os.Getenv("SYNTH_ROLE_AUDIT_LIST") != "" {
			t.Logf("task %s %s: %s", task.Files[0].Name, task.Generator, task.Query)
		}
		if ms := misuse(task, roles[task.Files[0].Name], totals[task.Files[0].Name]); len(ms) > 0 {
			bad++
			kinds := map[string]bool{}
			for _, m := range ms {
				for _, k := range []string{"the id", "the ordinal", "the year", "sums the intensive", "every number column", "aggregate rows", "annotates a"} {
					if strings.Contains(m, k) {
						kinds[k] = true
					}
				}
			}
			for k := range kinds {
				byKind[k]++
			}
			t.Logf("%s: %s\n  query: %s", task.Files[0].Name, strings.Join(ms, "; "), task.Query)
		}
	}
	t.Logf("%d of %d table tasks misuse a column's role; tasks per misuse: %v", bad, checked, byKind)
}

// auditInputs are the table files of dir as generator inputs.
func auditInputs(t *testing.T, dir string) []generators.Input {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ins []generators.Input
	for _, e := range ents {
		typ := strings.TrimPrefix(strings.ToLower(filepath.Ext(e.Name())), ".")
		if !slices.Contains(tableTypes, typ) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		ins = append(ins, generators.Input{File: schemas.File{ID: e.Name(), Name: e.Name(), Type: typ}, Path: p})
	}
	return ins
}
