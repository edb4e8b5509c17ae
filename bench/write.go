package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"synth/checks"
	"synth/schemas"
)

// Layout of a benchmark folder.
const (
	MetaFile      = "meta/task.json"
	TestsFile     = "unit_test/tests.py"
	TasksFile     = "tasks.jsonl"
	ReferenceFile = "reference_trajectories.jsonl"
	CardFile      = "BENCHMARK.md"
	DataDir       = "data"
)

// FirstIndex is the number of a built benchmark's first task. PyBench's
// tasks run from 2 and its data/unit_test/enter_point.py tests indexes 2 to
// 152, so a benchmark of up to 151 tasks numbered from 2 is run whole by it.
const FirstIndex = 2

// Info describes how a benchmark was made, for its card.
type Info struct {
	Seed      int64
	SourceRun string // the run directory or config hash it came from
	Validated string // how its tasks were validated
	// Scoring is the mode synth eval scores it with by default
	// (bench.json); empty: ScoringStrict.
	Scoring string
	// Avoided are the earlier benchmarks this split shares no input file
	// and no near-duplicate query with (synth build --exclude-bench), as
	// Earlier.Describe writes them.
	Avoided []string
}

// Entry is a benchmark task with its input files and, when known, the
// reference trajectory that solves it.
type Entry struct {
	Task      schemas.Task
	Inputs    map[string]string // file id -> host path of its content
	Reference *schemas.Trajectory
}

// pybenchTask is one element of PyBench's meta/task.json.
type pybenchTask struct {
	Index       string   `json:"index"`
	Category1   string   `json:"category1"`
	Category2   string   `json:"category2"`
	Category3   string   `json:"category3"`
	User        string   `json:"user"`
	FilePaths   []string `json:"file_paths"`
	Attachments []string `json:"attachments"`
}

// pybenchTrajectory is a line of PyBench's trajectory.jsonl.
type pybenchTrajectory struct {
	Index    string            `json:"index"`
	Messages []schemas.Message `json:"messages"`
}

// Write lays out a benchmark in dir, replacing what is there: PyBench's
// meta/task.json, data/, unit_test/tests.py (one test_task_<index> per task,
// compiled from its checks), synth's tasks.jsonl, the reference
// trajectories in PyBench's trajectory format, bench.json (the scoring
// mode) and BENCHMARK.md. Tasks are numbered from FirstIndex in the order
// given, unless they carry an index already. Files go to data/ under the
// names the queries use; two different files with one name make an error.
func Write(dir string, entries []Entry, info Info) error {
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := write(tmp, entries, info); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

func write(dir string, entries []Entry, info Info) error {
	for _, sub := range []string{"meta", "unit_test", DataDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
	}
	var (
		meta  []pybenchTask
		tests []checks.BenchTest
		refs  []pybenchTrajectory
		tasks []schemas.Task
		names = map[string]string{} // data name -> file id
	)
	seenIndex := map[string]bool{}
	for i, e := range entries {
		t := e.Task
		if t.Index == "" { // an imported benchmark keeps its own numbers
			t.Index = strconv.Itoa(i + FirstIndex)
		}
		if seenIndex[t.Index] {
			return fmt.Errorf("bench: task %s: index %s is used twice", t.ID, t.Index)
		}
		seenIndex[t.Index] = true
		var paths, attach []string
		for _, f := range t.Files {
			if prev, ok := names[f.Name]; ok && prev != f.ID {
				return fmt.Errorf("bench: task %s: two different files are both named data/%s", t.ID, f.Name)
			}
			if _, ok := names[f.Name]; !ok {
				src, ok := e.Inputs[f.ID]
				if !ok {
					return fmt.Errorf("bench: task %s: no content for input file %s (%s)", t.ID, f.Name, f.ID)
				}
				if err := copyFile(src, filepath.Join(dir, DataDir, f.Name)); err != nil {
					return fmt.Errorf("bench: task %s: %w", t.ID, err)
				}
				names[f.Name] = f.ID
			}
			paths = append(paths, DataDir+"/"+f.Name)
			attach = append(attach, "📄"+strings.TrimSuffix(f.Name, filepath.Ext(f.Name)))
		}
		meta = append(meta, pybenchTask{
			Index: t.Index, Category1: CategoryTitle(t.Category), Category2: t.Subcategory,
			Category3: t.Generator, User: t.Query, FilePaths: nonNil(paths), Attachments: nonNil(attach),
		})
		tests = append(tests, checks.BenchTest{Index: t.Index, Checks: t.Checks})
		if e.Reference != nil {
			refs = append(refs, pybenchTrajectory{Index: t.Index, Messages: e.Reference.Messages})
		}
		tasks = append(tasks, t)
	}
	if err := writeJSON(filepath.Join(dir, MetaFile), meta); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, TestsFile), checks.TestsPy(tests), 0o644); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := writeJSONL(filepath.Join(dir, TasksFile), tasks); err != nil {
		return err
	}
	if err := writeJSONL(filepath.Join(dir, ReferenceFile), refs); err != nil {
		return err
	}
	scoring := info.Scoring
	if scoring == "" {
		scoring = ScoringStrict
	}
	if err := CheckScoring(scoring); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := writeJSON(filepath.Join(dir, SettingsFile), Settings{Scoring: scoring}); err != nil {
		return err
	}
	hash, err := ContentHash(dir)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, CardFile), []byte(card(tasks, info, hash)), 0o644)
}

// CategoryTitle is a category's name as people read it.
func CategoryTitle(c string) string {
	switch c {
	case schemas.CategoryData:
		return "Data Analysis"
	case schemas.CategoryText:
		return "Text Analysis"
	case schemas.CategoryMedia:
		return "Image & Audio Editing"
	case schemas.CategoryMath:
		return "Complex Math"
	case schemas.CategorySoftware:
		return "Software & Website"
	}
	return c
}

// ContentHash hashes a benchmark's content — every file but the card and
// the difficulty file — by
// relative path and bytes, so two benchmarks with the same hash are the same.
func ContentHash(dir string) (string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel != CardFile && rel != DifficultyFile {
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("bench: %w", err)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, rel := range paths {
		f, err := os.Open(filepath.Join(dir, rel))
		if err != nil {
			return "", fmt.Errorf("bench: %w", err)
		}
		fmt.Fprintf(h, "%s\x00", rel)
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("bench: %w", err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func card(tasks []schemas.Task, info Info, hash string) string {
	perCat := map[string]int{}
	perType := map[string]int{}
	for _, t := range tasks {
		perCat[t.Category]++
		if len(t.Files) == 0 {
			perType["(no file)"]++
		}
		for _, f := range t.Files {
			perType[f.Type]++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Benchmark\n\n%d tasks, each checked by unit tests. Made by `synth build`.\n\n", len(tasks))
	b.WriteString("| category | tasks |\n|---|---:|\n")
	for _, c := range schemas.Categories {
		if perCat[c] > 0 {
			fmt.Fprintf(&b, "| %s | %d |\n", CategoryTitle(c), perCat[c])
		}
	}
	b.WriteString("\n| input file type | tasks |\n|---|---:|\n")
	for _, k := range slices.Sorted(maps.Keys(perType)) {
		fmt.Fprintf(&b, "| %s | %d |\n", k, perType[k])
	}
	fmt.Fprintf(&b, "\n## Provenance\n\n- seed: %d\n- source run: %s\n- content hash (sha256 of every file but this card): `%s`\n", info.Seed, info.SourceRun, hash)
	if info.Scoring != "" {
		fmt.Fprintf(&b, "- scored by default in synth eval's %s mode (bench.json)\n", info.Scoring)
	}
	if info.Validated != "" {
		fmt.Fprintf(&b, "- validation: %s\n", info.Validated)
	}
	for _, a := range info.Avoided {
		fmt.Fprintf(&b, "- a fresh split: shares no input file and no near-duplicate query with %s\n", a)
	}
	b.WriteString(`
## Layout

- meta/task.json — PyBench's task list (index, category1..3, user, file_paths, attachments)
- data/ — the input files, under the names the queries use
- unit_test/tests.py — one test_task_<index>(trajectory) per task; run from this folder
- tasks.jsonl — the tasks with their checks, read by synth eval
- reference_trajectories.jsonl — a solving trajectory per task, in PyBench's trajectory format
- bench.json — the scoring mode synth eval uses unless --scoring says otherwise

Score a model with: synth eval --bench <this folder> --model <model> --base-url <url>
`)
	return b.String()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func writeJSONL[T any](path string, items []T) error {
	var b strings.Builder
	for _, it := range items {
		line, err := json.Marshal(it)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
