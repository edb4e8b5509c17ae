package pybench

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/internal/testenv"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
	"synth/sources"
	"synth/sources/sourcetest"
)

const fixture = "testdata/checkout"

// needPython stops a test without Debian's Python, which Load runs for the
// extraction (extract.py needs the standard library only).
func needPython(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		testenv.Missing(t, "needs Debian's /usr/bin/python3: apt-get install python3 (make deps)")
	}
}

func TestLoad(t *testing.T) {
	needPython(t)
	c, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	byIndex := map[string]schemas.Task{}
	var order []string
	for _, task := range c.Tasks {
		idx := strings.Split(task.ID, "-")[1]
		byIndex[idx] = task
		order = append(order, idx)
		if task.Generator != "pybench" {
			t.Errorf("%s: generator %q", task.ID, task.Generator)
		}
	}
	if want := []string{"1", "2", "3", "4", "5", "6", "7", "8"}; !slices.Equal(order, want) {
		t.Fatalf("tasks %v, want %v", order, want)
	}
	cats := map[string]string{
		"1": schemas.CategoryData, "2": schemas.CategoryData, "3": schemas.CategoryMedia, "4": schemas.CategoryMath,
		"5": schemas.CategoryText, "6": schemas.CategorySoftware, "8": schemas.CategoryData,
	}
	for idx, cat := range cats {
		if got := byIndex[idx].Category; got != cat {
			t.Errorf("task %s: category %s, want %s", idx, got, cat)
		}
	}
	t1 := byIndex["1"]
	if len(t1.Files) != 1 || t1.Files[0].Name != "orders.csv" || t1.Files[0].Type != "csv" || len(t1.Files[0].ID) != 64 {
		t.Errorf("task 1 files = %+v", t1.Files)
	}
	if t1.Lang != "zh" || byIndex["2"].Lang != "en" || t1.Subcategory != "数据清洗" {
		t.Errorf("lang/subcategory: %+v", t1)
	}
	if !slices.Equal(t1.Outputs, []string{"output/1.csv"}) {
		t.Errorf("task 1 outputs = %v", t1.Outputs)
	}
	if len(t1.Checks) != 1 || t1.Checks[0].Kind != schemas.CheckPython || !strings.Contains(t1.Checks[0].Code, "test_task_1(messages)") {
		t.Errorf("task 1 checks = %+v", t1.Checks)
	}
	if strings.Contains(t1.Checks[0].Code, "cv2") {
		t.Errorf("task 1's check imports cv2, which it does not use:\n%s", t1.Checks[0].Code)
	}
	if !slices.Equal(byIndex["3"].Requires, []string{"cv2"}) {
		t.Errorf("task 3 requires %v, want [cv2]", byIndex["3"].Requires)
	}
	if len(byIndex["6"].Checks) != 0 {
		t.Errorf("task 6 has no test but got checks %+v", byIndex["6"].Checks)
	}
	again, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.Tasks {
		if c.Tasks[i].ID != again.Tasks[i].ID {
			t.Errorf("task ids differ between loads: %s, %s", c.Tasks[i].ID, again.Tasks[i].ID)
		}
	}
	var names []string
	for _, f := range c.Files {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{"orders.csv", "pixel.png", "story.txt"}) {
		t.Errorf("files = %v", names)
	}
	problems := map[string]string{}
	for _, p := range c.Problems {
		problems[p.Index] += p.Reason + ";"
	}
	for idx, want := range map[string]string{
		"5": "undefined names counts",
		"6": "no test_task_6",
		"7": "data/missing.xlsx",
		"8": "量子占卜",
	} {
		if !strings.Contains(problems[idx], want) {
			t.Errorf("problem of task %s = %q, want it to mention %q", idx, problems[idx], want)
		}
	}
	if len(problems) != 4 || !c.Broken("5") || c.Broken("1") {
		t.Errorf("problems = %v", problems)
	}
}

// TestChecksRun runs the extracted checks with real Python in a workspace
// where a correct rollout left its outputs, and in an empty one. The checks
// import pandas, PIL and cv2, so they run in the locked sandbox environment,
// as synth runs them; Debian's /usr/bin/python3 has none of those packages.
func TestChecksRun(t *testing.T) {
	needPython(t)
	python := pyenvtest.Python(t)
	c, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	good := t.TempDir()
	os.MkdirAll(filepath.Join(good, "output"), 0o755)
	os.WriteFile(filepath.Join(good, "output", "1.csv"), []byte("day,units\n1,3\n2,5\n3,4\n"), 0o644)
	png, _ := os.ReadFile(filepath.Join(fixture, "data", "pixel.png"))
	os.WriteFile(filepath.Join(good, "output", "2.png"), png, 0o644)
	empty := t.TempDir()
	answers := map[string]string{"1": "Done", "2": "Saved", "4": "x = 2 or x = 3", "7": "The mean is 3.75", "8": "ok"}
	for _, task := range c.Tasks {
		idx := strings.Split(task.ID, "-")[1]
		answer, ok := answers[idx]
		if !ok || len(task.Checks) == 0 {
			continue
		}
		code := task.Checks[0].Code
		if err := runCheck(t, python, good, code, answer); err != nil {
			t.Errorf("task %s: check fails on a good rollout: %v", idx, err)
		}
		if idx == "8" {
			continue // answer-only
		}
		if runCheck(t, python, empty, code, "I could not do it") == nil {
			t.Errorf("task %s: check passes on an empty rollout", idx)
		}
	}
	for _, task := range c.Tasks {
		if strings.HasPrefix(task.ID, "pybench-5-") {
			if runCheck(t, python, good, task.Checks[0].Code, "the") == nil {
				t.Error("task 5's broken check passed")
			}
		}
	}
}

// runCheck runs one check's code with python in dir, the rollout's answer as
// the last message.
func runCheck(t *testing.T, python, dir, code, answer string) error {
	t.Helper()
	messages, _ := json.Marshal([]map[string]string{{"role": "user", "content": "q"}, {"role": "assistant", "content": answer}})
	prelude := "import json, sys\nmessages = json.loads(sys.argv[1])\nanswer = messages[-1]['content']\n"
	cmd := exec.Command(python, "-c", prelude+code, string(messages))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return &checkError{err: err, out: string(out)}
	}
	return nil
}

type checkError struct {
	err error
	out string
}

func (e *checkError) Error() string { return e.err.Error() + ": " + e.out }

func TestLoadErrors(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), TaskFile) {
		t.Errorf("no task.json: %v", err)
	}
	os.MkdirAll(filepath.Join(dir, "data", "meta"), 0o755)
	os.WriteFile(filepath.Join(dir, TaskFile), []byte(`{"not": "a list"}`), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "JSON array") {
		t.Errorf("bad task.json: %v", err)
	}
	os.WriteFile(filepath.Join(dir, TaskFile), []byte(`[{"index": 1, "category1": "数学", "user": "1+1?", "file_paths": ["../../etc/passwd"]}, {"index": "1", "user": "dup"}]`), 0o644)
	os.MkdirAll(filepath.Join(dir, "data", "unit_test"), 0o755)
	os.WriteFile(filepath.Join(dir, TestsFile), []byte("def test_task_1(trajectory:\n"), 0o644)
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var reasons []string
	for _, p := range c.Problems {
		reasons = append(reasons, p.Index+": "+p.Reason)
	}
	all := strings.Join(reasons, "\n")
	for _, want := range []string{"*: data/unit_test/tests.py: tests.py line 1", "1: input ../../etc/passwd: path leaves the checkout", "1: duplicate index"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	if len(c.Tasks) != 1 || len(c.Tasks[0].Checks) != 0 {
		t.Errorf("tasks = %+v", c.Tasks)
	}
}

func TestConformance(t *testing.T) {
	needPython(t)
	c, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	sourcetest.Run(t, func(t *testing.T) sources.Source { return c.Source("") }, sourcetest.Options{MinItems: 3})
}

// TestIndexesKept imports a checkout numbered the way PyBench numbers its
// tasks, with gaps, and requires every task to keep its own index, the
// check of the test function that bears it, and that index in its ID.
func TestIndexesKept(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "data", "meta"), 0o755)
	os.MkdirAll(filepath.Join(dir, "data", "unit_test"), 0o755)
	var tasks []map[string]any
	var tests strings.Builder
	for _, idx := range []string{"2", "3", "5", "9"} {
		tasks = append(tasks, map[string]any{"index": idx, "category1": "数学", "user": "Query " + idx, "file_paths": []string{}})
		tests.WriteString("def test_task_" + idx + "(trajectory):\n    assert 'marker-" + idx + "'\n\n")
	}
	raw, _ := json.Marshal(tasks)
	os.WriteFile(filepath.Join(dir, TaskFile), raw, 0o644)
	os.WriteFile(filepath.Join(dir, TestsFile), []byte(tests.String()), 0o644)
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, task := range c.Tasks {
		got = append(got, task.Index)
		if task.Query != "Query "+task.Index {
			t.Errorf("task %s has the query %q", task.Index, task.Query)
		}
		if !strings.HasPrefix(task.ID, "pybench-"+task.Index+"-") {
			t.Errorf("task %s has the id %s", task.Index, task.ID)
		}
		if len(task.Checks) != 1 || !strings.Contains(task.Checks[0].Code, "marker-"+task.Index) {
			t.Errorf("task %s has the checks %+v", task.Index, task.Checks)
		}
	}
	if want := []string{"2", "3", "5", "9"}; !slices.Equal(got, want) {
		t.Errorf("indexes %v, want %v", got, want)
	}
}

// TestSymlinksRefused: a checkout whose input file, data directory or task
// list is a symlink out of the folder is refused with an error naming the
// path; the host file never enters the import.
func TestSymlinksRefused(t *testing.T) {
	needPython(t)
	secret := filepath.Join(t.TempDir(), "secret")
	os.MkdirAll(secret, 0o700)
	os.WriteFile(filepath.Join(secret, "orders.csv"), []byte("host,secret\n1,2\n"), 0o600)
	copyTree := func(t *testing.T) string {
		dst := t.TempDir()
		if out, err := exec.Command("cp", "-a", fixture+"/.", dst).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return dst
	}
	cases := []struct {
		name, link, target, want string
	}{
		{"input file", "data/orders.csv", "orders.csv", "data/orders.csv is a symlink"},
		{"data directory", "data", "", "data/meta/task.json is a symlink"},
		{"task list", TaskFile, "task.json", TaskFile + " is a symlink"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyTree(t)
			link := filepath.Join(dir, filepath.FromSlash(tc.link))
			target := filepath.Join(secret, tc.target)
			if tc.target == "task.json" {
				os.WriteFile(target, []byte("[]"), 0o600)
			}
			if tc.link == "data" {
				// The whole data directory, moved out and linked back.
				os.Rename(link, filepath.Join(secret, "data"))
				target = filepath.Join(secret, "data")
			}
			os.RemoveAll(link)
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one containing %q", err, tc.want)
			}
		})
	}
}
