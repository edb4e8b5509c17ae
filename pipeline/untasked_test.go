package pipeline

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"synth/config"
	"synth/filters"
	"synth/generators"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

// localConfig builds tasks of two templates, one reading a table and one
// reading no file, from a folder of a good table, a table too small for any
// template and a file no template reads.
func localConfig(t *testing.T) config.Config {
	dir := writeInputs(t, "sales.csv")
	if err := os.WriteFile(filepath.Join(dir, "tiny.csv"), []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A NumPy array of three int64s: no template reads npy.
	header := "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }"
	header += strings.Repeat(" ", 128-10-len(header)-1) + "\n"
	npy := "\x93NUMPY\x01\x00" + string([]byte{byte(len(header)), 0}) + header + strings.Repeat("\x01\x00\x00\x00\x00\x00\x00\x00", 3)
	if err := os.WriteFile(filepath.Join(dir, "arr.npy"), []byte(npy), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := quickConfig()
	cfg.Sources.Specs = []string{"local:" + dir}
	cfg.Tasks.Templates = []string{"table.sort", "math.quadratic"}
	return cfg
}

// With only local sources no task reads no file, unless tasks.fileless
// asks for them; the built-in corpus gets them by default.
func TestFilelessOnlyWhenAsked(t *testing.T) {
	needPython(t)
	for _, tc := range []struct {
		name     string
		fileless bool
		sample   bool
		want     bool
	}{
		{"local", false, false, false},
		{"local and fileless", true, false, true},
		{"local and the built-in corpus", false, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := localConfig(t)
			cfg.Tasks.Fileless = tc.fileless
			if tc.sample {
				cfg.Sources.Specs = append(cfg.Sources.Specs, "sample")
			}
			dir := filepath.Join(t.TempDir(), "out")
			var log strings.Builder
			if _, err := Generate(context.Background(), cfg, Options{Out: dir, Log: &log}); err != nil {
				t.Fatalf("%v\n%s", err, log.String())
			}
			tasks, _, _, err := new(taskStore).read(filepath.Join(dir, rundir.Tasks), nil)
			if err != nil {
				t.Fatal(err)
			}
			fileless, withFile := 0, 0
			for _, task := range tasks {
				if len(task.meta.Files) == 0 {
					fileless++
				} else {
					withFile++
				}
			}
			if got := fileless > 0; got != tc.want || withFile == 0 {
				t.Errorf("%d tasks read no file, %d read one; want fileless tasks %v and tasks on files", fileless, withFile, tc.want)
			}
			if said := strings.Contains(log.String(), "--fileless"); said == tc.want {
				t.Errorf("the log says how to get tasks that read no file: %v, want %v:\n%s", said, !tc.want, log.String())
			}
		})
	}
}

// The files without a task are named with why in tasks.report.md, the
// generate line, run.json and the funnel (filtered.jsonl), also by a
// resumed run.
func TestUntaskedFilesNamed(t *testing.T) {
	needPython(t)
	cfg := localConfig(t)
	dir := filepath.Join(t.TempDir(), "out")
	var log strings.Builder
	sum, err := Generate(context.Background(), cfg, Options{Out: dir, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	want := map[string]string{"tiny.csv": generators.ReasonUnusable, "arr.npy": generators.ReasonUnsupportedType}
	report, err := os.ReadFile(filepath.Join(dir, rundir.TasksReport))
	if err != nil {
		t.Fatal(err)
	}
	for name, reason := range want {
		if !strings.Contains(string(report), "| "+name+" | ") || !strings.Contains(string(report), " | "+reason+" | ") {
			t.Errorf("tasks.report.md does not name %s as %s:\n%s", name, reason, report)
		}
	}
	if strings.Contains(string(report), "| sales.csv |") {
		t.Errorf("tasks.report.md names sales.csv, which has tasks:\n%s", report)
	}
	if line := sum.Stages[1]; line.Stage != "generate" || !strings.Contains(line.Note, "2 files without a task") {
		t.Errorf("generate line %+v does not count the 2 files without a task", line)
	}
	info, err := runinfo.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, u := range info.Untasked {
		got[u.Name] = u.Reason
	}
	if !maps.Equal(got, want) {
		t.Errorf("run.json untasked %v, want %v", got, want)
	}
	// The plan counts them in the funnel, from run.json, so a resumed run
	// does too; a file whose benchmark tasks all fail their proof joins
	// them.
	r, fs := reopened(t, cfg, dir)
	tasks, _, _, err := r.tasks.read(filepath.Join(dir, rundir.Tasks), nil)
	if err != nil {
		t.Fatal(err)
	}
	fn := &funnel{Funnel: filters.NewFunnel(stageFiles)}
	if err := r.countFiles(fn, fs, readFiles(tasks), tasks, nil, nil); err != nil {
		t.Fatal(err)
	}
	if st := fn.Snapshot()[0]; st.In != 3 || st.Out != 1 || len(st.Reasons) != 2 {
		t.Errorf("funnel files stage %+v, want 3 in, 1 out, 2 reasons", st)
	}
	// Whatever dropped the tasks of sales.csv is named.
	for _, tc := range []struct {
		split      map[string]bool
		bench      []schemas.Task
		wantReason string
	}{
		{readFiles(tasks), nil, reasonDroppedByFilters},
		{nil, nil, reasonDroppedBySplit},
		{readFiles(tasks), []schemas.Task{*tasks[0].task()}, reasonDroppedByProof},
	} {
		fn = &funnel{Funnel: filters.NewFunnel(stageFiles)}
		if err := r.countFiles(fn, fs, tc.split, nil, tc.bench, nil); err != nil {
			t.Fatal(err)
		}
		var reasons []string
		for _, rc := range fn.Snapshot()[0].Reasons {
			reasons = append(reasons, rc.Reason)
		}
		if !slices.Contains(reasons, tc.wantReason) {
			t.Errorf("files stage reasons %v, want %s among them", reasons, tc.wantReason)
		}
	}
	bench := []schemas.Task{*tasks[0].task()}
	fn = &funnel{Funnel: filters.NewFunnel(stageFiles)}
	if err := r.countFiles(fn, fs, nil, nil, bench, nil); err != nil {
		t.Fatal(err)
	}
	st := fn.Snapshot()[0]
	if st.In != 3 || st.Out != 0 || len(st.Reasons) != 3 {
		t.Errorf("funnel files stage %+v, want 3 in, 0 out, 3 reasons", st)
	}
	report, err = os.ReadFile(filepath.Join(dir, rundir.TasksReport))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`\| sales.csv \| csv \| \w+ \| dropped_by_proof \|`).Match(report) || !strings.Contains(string(report), "3 collected files got no task") {
		t.Errorf("tasks.report.md does not name sales.csv, whose benchmark tasks all failed their proof:\n%s", report)
	}
}

// A rerun into a finished folder says which templates can run now that
// could not when its tasks were written, and how to get their tasks; with
// nothing new it says nothing.
func TestRerunNamesNewTemplates(t *testing.T) {
	needPython(t)
	cfg := localConfig(t)
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Generate(context.Background(), cfg, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	sum, err := Generate(context.Background(), cfg, Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Notes) != 0 {
		t.Errorf("a rerun with nothing new notes %q", sum.Notes)
	}
	// As if table.sort could not run then: its module was missing, or
	// this synth did not have it.
	info, err := runinfo.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	info.Templates = slices.DeleteFunc(info.Templates, func(id string) bool { return strings.HasPrefix(id, "table.sort@") })
	if err := info.Save(dir); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	sum, err = Generate(context.Background(), cfg, Options{Out: dir, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Notes) != 1 || !strings.Contains(sum.Notes[0], "table.sort") || !strings.Contains(sum.Notes[0], "more tasks") || !strings.Contains(sum.Notes[0], "-o") {
		t.Fatalf("rerun notes %q, want one naming table.sort, its tasks and how to get them", sum.Notes)
	}
	if strings.Contains(sum.Notes[0], "math.quadratic") {
		t.Errorf("the note names math.quadratic, whose tasks this run does not write: %s", sum.Notes[0])
	}
	if !strings.Contains(log.String(), sum.Notes[0]) {
		t.Errorf("the log does not carry the note:\n%s", log.String())
	}
}

// Refusing to resume under another environment, synth names the templates
// that environment would let run and the run's tasks were written without.
func TestEnvironmentRefusalNamesNewTemplates(t *testing.T) {
	needPython(t)
	cfg := localConfig(t)
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Generate(context.Background(), cfg, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	info, err := runinfo.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if info.Python.Fingerprint == "" {
		t.Fatal("run.json records no environment fingerprint")
	}
	// As if the run was made under an environment that lacked a module:
	// table.sort could not run.
	info.Python.Fingerprint = "00000000deadbeef"
	info.Templates = slices.DeleteFunc(info.Templates, func(id string) bool { return strings.HasPrefix(id, "table.sort@") })
	if err := info.Save(dir); err != nil {
		t.Fatal(err)
	}
	_, err = Generate(context.Background(), cfg, Options{Out: dir})
	if !errors.Is(err, ErrEnvironmentChanged) {
		t.Fatalf("err = %v, want ErrEnvironmentChanged", err)
	}
	if !strings.Contains(err.Error(), "1 more templates can run: table.sort@") || !strings.Contains(err.Error(), "a new -o gets their tasks") {
		t.Errorf("the refusal does not name table.sort and how to get its tasks: %v", err)
	}
}

// The files a collection leaves out are named with why in tasks.report.md
// and run.json too, and stay named when a later stage rewrites the list of
// files without a task.
func TestNotCollectedFilesNamed(t *testing.T) {
	needPython(t)
	cfg := localConfig(t)
	src := strings.TrimPrefix(cfg.Sources.Specs[0], "local:")
	if err := os.WriteFile(filepath.Join(src, "empty.csv"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	var log strings.Builder
	if _, err := Generate(context.Background(), cfg, Options{Out: dir, Log: &log}); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	named := func(when string) {
		t.Helper()
		report, err := os.ReadFile(filepath.Join(dir, rundir.TasksReport))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(report), "1 files were not collected (empty 1)") || !strings.Contains(string(report), "| empty.csv | empty | ") {
			t.Errorf("%s: tasks.report.md does not name empty.csv as not collected:\n%s", when, report)
		}
	}
	named("after generate")
	info, err := runinfo.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.NotCollected) != 1 || info.NotCollected[0].Name != "empty.csv" || info.NotCollected[0].Reason != "empty" {
		t.Errorf("run.json not_collected = %+v, want empty.csv (empty)", info.NotCollected)
	}
	r, fs := reopened(t, cfg, dir)
	if err := r.countFiles(&funnel{Funnel: filters.NewFunnel(stageFiles)}, fs, nil, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	named("after the list is rewritten")
}

// reopened is a builder over the run in dir, as a resumed build opens it,
// and its collected files; it closes with the test.
func reopened(t *testing.T, cfg config.Config, dir string) (*builder, *fileSet) {
	t.Helper()
	r := newBuilder(cfg, Options{Out: dir})
	t.Cleanup(r.close)
	if err := r.open(context.Background()); err != nil {
		t.Fatal(err)
	}
	fs, err := r.collect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r, fs
}
