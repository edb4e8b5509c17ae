package pybench

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"synth/hostpy"
	"synth/schemas"
	"synth/sources"
)

//go:embed extract.py
var extractScript string

// Paths inside a checkout.
const (
	TaskFile  = "data/meta/task.json"
	TestsFile = "data/unit_test/tests.py"
)

// Options tune Load. The zero value is the default.
type Options struct {
	Python  string        // interpreter for the ast extraction; empty: /usr/bin/python3
	Timeout time.Duration // for the extraction; 0: 60 s
}

// Checkout is an imported PyBench checkout.
type Checkout struct {
	Dir      string
	Tasks    []schemas.Task // in task.json's order
	Files    []File         // the input files to copy, each once, sorted by Name
	Problems []Problem      // broken or doubtful tasks, in task order
}

// File is an input file of the checkout: where it is, and the name tasks
// give it under ./data/.
type File struct {
	Path string // host path
	Name string // name under ./data/ (the checkout's path below data/)
	ID   string // sha256 of the content
	Type string // by content
	Size int64
}

// Problem is a task that did not import cleanly. The task is still in
// Tasks (unless Reason says it was dropped) so that nothing is hidden; a
// benchmark that wants only sound tasks leaves out those with problems.
type Problem struct {
	Index  string `json:"index"`
	Reason string `json:"reason"`
}

// Broken reports whether task index has a problem.
func (c *Checkout) Broken(index string) bool {
	return slices.ContainsFunc(c.Problems, func(p Problem) bool { return p.Index == index })
}

// pyTask is an entry of data/meta/task.json.
type pyTask struct {
	Index       json.RawMessage `json:"index"`
	Category1   string          `json:"category1"`
	Category2   string          `json:"category2"`
	Category3   string          `json:"category3"`
	User        string          `json:"user"`
	FilePaths   []string        `json:"file_paths"`
	Attachments json.RawMessage `json:"attachments"`
}

type extracted struct {
	Error *string               `json:"error"`
	Tests map[string]extracted1 `json:"tests"`
}

type extracted1 struct {
	Name      string   `json:"name"`
	Code      string   `json:"code"`
	Undefined []string `json:"undefined"`
	Requires  []string `json:"requires"`
	Outputs   []string `json:"outputs"`
}

// Load imports the PyBench checkout at dir with default options.
func Load(dir string) (*Checkout, error) {
	return LoadWith(context.Background(), dir, Options{})
}

// LoadWith imports the PyBench checkout at dir. It fails when task.json is
// missing or not PyBench's format, or Python cannot run; a task that is
// merely broken (a test that names undefined variables, a missing input
// file, no test function) is listed in Problems.
func LoadWith(ctx context.Context, dir string, opts Options) (*Checkout, error) {
	raw, err := readBeneath(dir, TaskFile)
	if err != nil {
		return nil, fmt.Errorf("pybench %s: %w (want a PyBench checkout with %s)", dir, err, TaskFile)
	}
	var tasks []pyTask
	if err := json.Unmarshal(raw, &tasks); err != nil {
		return nil, fmt.Errorf("pybench %s: %s: not PyBench's task list (a JSON array of {index, category1, user, file_paths, …}): %w", dir, TaskFile, err)
	}
	if f, err := sources.OpenBeneath(dir, TestsFile); errors.Is(err, sources.ErrSymlink) {
		return nil, fmt.Errorf("pybench %s: %w", dir, err)
	} else if err == nil {
		f.Close()
	}
	tests, err := extractTests(ctx, filepath.Join(dir, filepath.FromSlash(TestsFile)), opts)
	if err != nil {
		return nil, fmt.Errorf("pybench %s: %w", dir, err)
	}
	c := &Checkout{Dir: dir}
	problem := func(index, format string, args ...any) {
		c.Problems = append(c.Problems, Problem{Index: index, Reason: fmt.Sprintf(format, args...)})
	}
	if tests.Error != nil {
		problem("*", "%s: %s: no task has a check", TestsFile, *tests.Error)
	}
	files := map[string]*File{}
	seen := map[string]bool{}
	for i, pt := range tasks {
		index := indexString(pt.Index)
		if index == "" {
			problem(fmt.Sprintf("#%d", i), "task has no index: dropped")
			continue
		}
		if seen[index] {
			problem(index, "duplicate index: dropped")
			continue
		}
		seen[index] = true
		t := schemas.Task{
			Index:       index,
			Category:    mapCategory(pt.Category1, pt.Category2),
			Subcategory: strings.TrimSpace(pt.Category2),
			Query:       pt.User,
			Lang:        lang(pt.User),
			Generator:   "pybench",
		}
		if t.Category == "" {
			t.Category = schemas.CategoryData
			problem(index, "category %q not known: filed under %s", oneLine(pt.Category1), t.Category)
		}
		for _, fp := range pt.FilePaths {
			f, err := c.file(dir, fp, files)
			if errors.Is(err, sources.ErrSymlink) {
				return nil, fmt.Errorf("pybench %s: task %s: input %w", dir, index, err)
			}
			if err != nil {
				problem(index, "input %s: %v", fp, err)
				continue
			}
			t.Files = append(t.Files, schemas.TaskFile{ID: f.ID, Name: f.Name, Type: f.Type})
		}
		test, ok := tests.Tests[index]
		switch {
		case tests.Error != nil:
		case !ok:
			problem(index, "no test_task_%s in %s: the task has no check", index, TestsFile)
		default:
			if len(test.Undefined) > 0 {
				problem(index, "%s references undefined names %s: the check always fails", test.Name, strings.Join(test.Undefined, ", "))
			}
			t.Checks = []schemas.Check{{Kind: schemas.CheckPython, Code: test.Code}}
			t.Requires = test.Requires
			t.Outputs = outputs(test.Outputs, pt.User)
		}
		t.ID = taskID(index, t)
		c.Tasks = append(c.Tasks, t)
	}
	for _, f := range files {
		c.Files = append(c.Files, *f)
	}
	slices.SortFunc(c.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	return c, nil
}

// file resolves a task's file path (relative to the checkout, as PyBench
// writes them: data/x.csv or ./data/x.csv), hashing it once.
func (c *Checkout) file(dir, fp string, files map[string]*File) (*File, error) {
	rel, ok := sources.SafeEntryPath(strings.TrimPrefix(filepath.ToSlash(fp), "./"))
	if !ok {
		return nil, errors.New("path leaves the checkout")
	}
	if !strings.HasPrefix(rel, "data/") {
		rel = "data/" + rel
	}
	if f, ok := files[rel]; ok {
		return f, nil
	}
	host := filepath.Join(dir, filepath.FromSlash(rel))
	fh, err := sources.OpenBeneath(dir, rel)
	switch {
	case errors.Is(err, sources.ErrSymlink):
		return nil, err
	case errors.Is(err, os.ErrNotExist):
		return nil, errors.New("file not found")
	case err != nil:
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	head := make([]byte, sources.HeadSize)
	n, _ := io.ReadFull(fh, head)
	h.Write(head[:n])
	if _, err := io.Copy(h, fh); err != nil {
		return nil, err
	}
	typ, err := sources.DetectFile(host)
	if err != nil {
		return nil, err
	}
	f := &File{Path: host, Name: strings.TrimPrefix(rel, "data/"), ID: hex.EncodeToString(h.Sum(nil)), Type: typ, Size: st.Size()}
	files[rel] = f
	return f, nil
}

func extractTests(ctx context.Context, testsPath string, opts Options) (*extracted, error) {
	if _, err := os.Stat(testsPath); err != nil {
		msg := "no tests file: no task has a check"
		return &extracted{Error: &msg}, nil
	}
	py := opts.Python
	if py == "" {
		py = "/usr/bin/python3"
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if abs, err := filepath.Abs(testsPath); err == nil {
		testsPath = abs // host Python runs from /
	}
	cmd := hostpy.Command(ctx, py, "-c", extractScript, testsPath)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("extract tests with %s: %w: %s", py, err, strings.TrimSpace(stderr.String()))
	}
	var out extracted
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("extract tests: %w", err)
	}
	return &out, nil
}

// indexString accepts PyBench's string indexes and plain numbers.
func indexString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// categoryRules map PyBench's (Chinese) category names to synth's five,
// first match wins.
var categoryRules = []struct {
	re  *regexp.Regexp
	cat string
}{
	{regexp.MustCompile(`(?i)图|图像|图片|音频|音乐|视频|声音|image|audio|video|picture|photo|sound`), schemas.CategoryMedia},
	{regexp.MustCompile(`(?i)数学|方程|积分|微分|求解|math|equation|calculus`), schemas.CategoryMath},
	{regexp.MustCompile(`(?i)文本|自然语言|词云|文档|text|nlp|natural language|document`), schemas.CategoryText},
	{regexp.MustCompile(`(?i)网页|爬虫|网站|软件|开发|游戏|web|software|game|app`), schemas.CategorySoftware},
	{regexp.MustCompile(`(?i)数据|分析|可视化|统计|机器学习|pandas|data|chart|plot|visuali|machine learning`), schemas.CategoryData},
}

// mapCategory maps category1 (then category2) to a synth category, or "".
// Visualisation belongs with data even though its name has 图 (chart).
func mapCategory(c1, c2 string) string {
	for _, c := range []string{c1, c2} {
		if strings.Contains(c, "可视化") || strings.Contains(c, "数据分析") {
			return schemas.CategoryData
		}
		for _, r := range categoryRules {
			if r.re.MatchString(c) {
				return r.cat
			}
		}
	}
	return ""
}

func lang(s string) string {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return "zh"
		}
	}
	return "en"
}

var outputRe = regexp.MustCompile(`(?:\./)?output/[\w.\-]+`)

// outputs are the paths a task asks for, from its test and its query.
func outputs(fromTest []string, query string) []string {
	set := map[string]bool{}
	for _, o := range append(fromTest, outputRe.FindAllString(query, -1)...) {
		o = strings.TrimRight(strings.TrimPrefix(o, "./"), ".")
		set[path.Clean(o)] = true
	}
	var out []string
	for o := range set {
		out = append(out, o)
	}
	slices.Sort(out)
	return out
}

// taskID is deterministic: the index and a hash of what the task is.
func taskID(index string, t schemas.Task) string {
	h := sha256.New()
	fmt.Fprintf(h, "pybench\x00%s\x00%s\x00", index, t.Query)
	for _, f := range t.Files {
		fmt.Fprintf(h, "%s:%s\x00", f.Name, f.ID)
	}
	for _, c := range t.Checks {
		io.WriteString(h, c.Code)
	}
	return "pybench-" + index + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// readBeneath reads rel inside the checkout, refusing symlinks.
func readBeneath(dir, rel string) ([]byte, error) {
	f, err := sources.OpenBeneath(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
