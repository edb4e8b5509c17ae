package checks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"synth/schemas"
)

func bp(b bool) *bool { return &b }

type verifyCase struct {
	name   string
	check  schemas.Check
	answer string
	ok     bool
	msg    string // substring of the message
}

var verifyCases = []verifyCase{
	{"number plain", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 1234.5, RelTol: 1e-4}}, "The total is 1234.5.", true, ""},
	{"answer after analysis", schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: 7, AbsTol: 0.01}}, "Analyse: 3 steps were needed.\nFinished: the answer is 8", false, "the answer states 8, not"},
	{"number commas", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 1234.5, RelTol: 1e-4}}, "Finished: total 1,234.50 units", true, ""},
	{"number exponent", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 1234.5, RelTol: 1e-4}}, "about 1.2345e3", true, ""},
	{"number percent", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 0.12, AbsTol: 0.001}}, "growth was 12%", true, ""},
	{"number percent as is", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 12, AbsTol: 0.01}}, "growth was 12 %", true, ""},
	{"number wrong", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 5.25, AbsTol: 0.01}}, "mean is 5.3", false, "states 5.3, not a number within 0.01 of 5.25"},
	{"empty answer", schemas.Check{Kind: "answer", ContainsAll: []string{"x"}}, "", false, "final answer is empty"},
	{"contains all", schemas.Check{Kind: "answer", ContainsAll: []string{"north", "East"}}, "North beats east", true, ""},
	{"contains all missing", schemas.Check{Kind: "answer", ContainsAll: []string{"North", "West"}}, "North only", false, "lacks 'West'"},
	{"contains any", schemas.Check{Kind: "answer", ContainsAny: []string{"x = 2", "x=2"}}, "so x=2", true, ""},
	{"regex", schemas.Check{Kind: "answer", Regex: `\bN\b`}, "region N", true, ""},
	{"file exists", schemas.Check{Kind: "file", Path: "output/rot.png", Type: "png"}, "", true, ""},
	{"file missing", schemas.Check{Kind: "file", Path: "output/nope.png"}, "", false, "output/nope.png does not exist"},
	{"file wrong type", schemas.Check{Kind: "file", Path: "output/shapes.jpg", Type: "png"}, "", false, "is a jpeg file, expected png"},
	{"file empty", schemas.Check{Kind: "file", Path: "output/empty.txt"}, "", false, "0 bytes"},
	{"file json cut mid-character", schemas.Check{Kind: "file", Path: "output/cyrillic.json", Type: "json"}, "", true, ""},
	{"file absent wanted", schemas.Check{Kind: "file", Path: "output/nope.png", Exists: bp(false)}, "", true, ""},
	{"table clean", schemas.Check{Kind: "table", Path: "output/clean.csv", Rows: intp(3), NoDuplicates: true, NoNulls: true, ColumnsInclude: []string{"Region", "sales"}, SortedBy: &schemas.SortKey{Column: "sales", Descending: true}}, "", true, ""},
	{"table duplicates", schemas.Check{Kind: "table", Path: "output/dirty.csv", NoDuplicates: true}, "", false, "output/dirty.csv has 5 duplicate rows"},
	{"table duplicates behind an index", schemas.Check{Kind: "table", Path: "output/dirty_index.csv", NoDuplicates: true}, "", false, "has 5 duplicate rows"},
	{"table nulls", schemas.Check{Kind: "table", Path: "output/dups.csv", NoNulls: true}, "", false, "1 empty cells (in region)"},
	{"table rows", schemas.Check{Kind: "table", Path: "output/dups.csv", Rows: intp(3)}, "", false, "has 4 rows, expected 3"},
	{"table columns", schemas.Check{Kind: "table", Path: "output/dups.csv", ColumnsInclude: []string{"total"}}, "", false, "lacks column 'total'"},
	{"table unsorted", schemas.Check{Kind: "table", Path: "output/dups.csv", SortedBy: &schemas.SortKey{Column: "sales"}}, "", false, "not sorted by sales (ascending): row 1 (5.0) comes before row 2 (3.0)"},
	{"image rotated", schemas.Check{Kind: "image", Path: "output/rot.png", Width: intp(80), Height: intp(120), Compare: &schemas.ImageCompare{Ref: "data/shapes.png", Transform: "rotate:90", MinSimilarity: 0.9}}, "", true, ""},
	{"image not rotated", schemas.Check{Kind: "image", Path: "output/same.png", Compare: &schemas.ImageCompare{Ref: "data/shapes.png", Transform: "rotate:90", MinSimilarity: 0.9}}, "", false, "similarity"},
	{"image size", schemas.Check{Kind: "image", Path: "output/same.png", Width: intp(224), Height: intp(224)}, "", false, "output/same.png is 120x80, expected 224x224"},
	{"image flipped", schemas.Check{Kind: "image", Path: "output/flip.png", Compare: &schemas.ImageCompare{Ref: "data/shapes.png", Transform: "flip_h", MinSimilarity: 0.9}}, "", true, ""},
	{"image not flipped", schemas.Check{Kind: "image", Path: "output/same.png", Compare: &schemas.ImageCompare{Ref: "data/shapes.png", Transform: "flip_h", MinSimilarity: 0.9}}, "", false, "similarity"},
	{"image gray", schemas.Check{Kind: "image", Path: "output/gray.png", Mode: "L", Compare: &schemas.ImageCompare{Ref: "data/shapes.png", Transform: "grayscale", MinSimilarity: 0.9}}, "", true, ""},
	{"image not gray", schemas.Check{Kind: "image", Path: "output/same.png", Compare: &schemas.ImageCompare{Ref: "data/shapes.png", Transform: "grayscale", MinSimilarity: 0.9}}, "", false, "still has colour"},
	{"image cropped", schemas.Check{Kind: "image", Path: "output/crop.png", Width: intp(60), Height: intp(50), Compare: &schemas.ImageCompare{Ref: "data/shapes.png", Transform: "crop:10,5,60,50", MinSimilarity: 0.9}}, "", true, ""},
	{"image jpeg", schemas.Check{Kind: "image", Path: "output/shapes.jpg", Compare: &schemas.ImageCompare{Ref: "data/shapes.png", MinSimilarity: 0.95}}, "", true, ""},
	{"image brighter", schemas.Check{Kind: "image", Path: "output/bright.png", BrighterThan: "data/shapes.png"}, "", true, ""},
	{"image not brighter", schemas.Check{Kind: "image", Path: "output/same.png", BrighterThan: "data/shapes.png"}, "", false, "not brighter"},
	{"image sharper", schemas.Check{Kind: "image", Path: "output/blur.png", SharperThan: "data/shapes.png"}, "", false, "not sharper"},
	{"audio duration", schemas.Check{Kind: "audio", Path: "output/short.wav", Duration: &schemas.Range{Min: 0.95, Max: 1.05}, ShorterThan: "data/tone.wav"}, "", true, ""},
	{"audio wrong duration", schemas.Check{Kind: "audio", Path: "data/tone.wav", Duration: &schemas.Range{Min: 0.95, Max: 1.05}}, "", false, "lasts 2.00 s, expected 0.95–1.05 s"},
	{"audio louder", schemas.Check{Kind: "audio", Path: "output/loud.wav", LouderThan: "data/tone.wav"}, "", true, ""},
	{"audio not quieter", schemas.Check{Kind: "audio", Path: "output/loud.wav", QuieterThan: "data/tone.wav"}, "", false, "not quieter"},
	{"pickle model", schemas.Check{Kind: "pickle", Path: "output/lr.pkl", HasMethod: "predict"}, "", true, ""},
	{"pickle dict", schemas.Check{Kind: "pickle", Path: "output/model.pkl", HasMethod: "predict"}, "", false, "holds a dict, which has no predict method"},
	{"text html", schemas.Check{Kind: "text", Path: "output/page.html", ContainsAll: []string{"<h1>", "<table"}}, "", true, ""},
	{"text lacks", schemas.Check{Kind: "text", Path: "output/page.html", ContainsAll: []string{"<form"}}, "", false, "lacks '<form'"},
	{"python ok", schemas.Check{Kind: "python", Code: "df = read_table('output/clean.csv')\nassert len(df) == 3, 'rows'\nassert answer == 'yes'"}, "Finished: yes", true, ""},
	{"python assert", schemas.Check{Kind: "python", Code: "assert answer == 'no', 'answer should be no, got %r' % answer"}, "yes", false, "answer should be no, got 'yes'"},
	{"python bare assert", schemas.Check{Kind: "python", Code: "x = 1\nassert x == 2"}, "yes", false, "assertion failed: assert x == 2"},
	{"python raises", schemas.Check{Kind: "python", Code: "1/0"}, "yes", false, "ZeroDivisionError"},
	{"check raises", schemas.Check{Kind: "answer", Regex: `x\z`}, "x", false, "answer check raised"}, // Go's \z, not Python's
	{"python imports importlib", schemas.Check{Kind: "python", Code: "import importlib\nassert True"}, "yes", false, "may not import importlib"},
	{"python imports runpy", schemas.Check{Kind: "python", Code: "from runpy import run_path\nassert True"}, "yes", false, "may not import runpy"},
}

func TestVerify(t *testing.T) {
	dir := workspace(t)
	b := openBackend(t)
	var cases []Case
	for _, tc := range verifyCases {
		if err := ValidateCheck(&tc.check); err != nil {
			t.Fatalf("%s: invalid check: %v", tc.name, err)
		}
		cases = append(cases, Case{Checks: []schemas.Check{tc.check}, Answer: tc.answer, Files: dirFiles(t, dir)})
	}
	all, err := Verify(context.Background(), b, cases)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range verifyCases {
		t.Run(tc.name, func(t *testing.T) {
			rs := all[i]
			if len(rs) != 1 {
				t.Fatalf("%d results", len(rs))
			}
			r := rs[0]
			if r.OK != tc.ok || !strings.Contains(r.Message, tc.msg) || r.Kind != tc.check.Kind {
				t.Fatalf("got ok=%v %q, want ok=%v with %q", r.OK, r.Message, tc.ok, tc.msg)
			}
		})
	}
}

// TestTestsPyAgrees runs the exported tests.py with Python, one test per
// case, and compares each verdict with Verify's.
func TestTestsPyAgrees(t *testing.T) {
	dir := workspace(t)
	var tests []BenchTest
	var trajs []any
	for i, tc := range verifyCases {
		tests = append(tests, BenchTest{Index: fmt.Sprint(i + 1), Checks: []schemas.Check{tc.check}})
		trajs = append(trajs, []map[string]string{{"role": "user", "content": "q"}, {"role": "assistant", "content": "Finished: " + tc.answer}})
	}
	if err := os.WriteFile(filepath.Join(dir, "tests.py"), TestsPy(tests), 0o644); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(trajs)
	if err := os.WriteFile(filepath.Join(dir, "trajs.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	driver := `import json, tests
trajs = json.load(open("trajs.json"))
for i, tr in enumerate(trajs, 1):
    try:
        getattr(tests, "test_task_%d" % i)(tr)
        print("PASS")
    except AssertionError as e:
        print("FAIL " + str(e).replace("\n", " "))
`
	cmd := exec.Command(python, "-c", driver)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tests.py: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(verifyCases) {
		t.Fatalf("%d verdicts for %d tests:\n%s", len(lines), len(verifyCases), out)
	}
	for i, tc := range verifyCases {
		pass := lines[i] == "PASS"
		if pass != tc.ok {
			t.Errorf("%s: tests.py says %q, want ok=%v", tc.name, lines[i], tc.ok)
		}
		if !pass && !strings.Contains(lines[i], tc.msg) {
			t.Errorf("%s: tests.py message %q lacks %q", tc.name, lines[i], tc.msg)
		}
	}
}

// TestTestsPyJudgesUnrecordedChartsByImage: where no figure recorder ran
// (PyBench's harness running the exported tests.py), a chart without a
// record is judged by its other checks alone; in synth's verifier the same
// chart check fails, naming the missing record.
func TestTestsPyJudgesUnrecordedChartsByImage(t *testing.T) {
	dir := workspace(t)
	check := schemas.Check{Kind: "python", Code: "chart_bars('output/rot.png', {'a': 1.0, 'b': 2.0})"}
	if err := os.WriteFile(filepath.Join(dir, "tests.py"), TestsPy([]BenchTest{{Index: "1", Checks: []schemas.Check{check}}}), 0o644); err != nil {
		t.Fatal(err)
	}
	driver := `import json, tests
tests.test_task_1([{"role": "assistant", "content": "Finished: saved"}])
print("exported PASS")
tests.FIGURE_RECORDS = True
rs = tests.run_checks([json.loads(%q)], "saved", [])
print("verifier", "PASS" if rs[0]["ok"] else "FAIL " + rs[0]["message"])
`
	js, _ := json.Marshal(check)
	cmd := exec.Command(python, "-c", fmt.Sprintf(driver, string(js)))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tests.py: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "exported PASS") || !strings.Contains(string(out), "verifier FAIL") || !strings.Contains(string(out), "carries no record") {
		t.Errorf("want the exported test to pass and the verifier to fail naming the record:\n%s", out)
	}
}
