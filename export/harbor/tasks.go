package harbor

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"synth/bench"
	"synth/checks"
	"synth/schemas"
)

// Layout of a Harbor task folder (harbor.models.task.paths.TaskPaths) and
// of the container it describes.
const (
	InstructionFile = "instruction.md"
	ConfigFile      = "task.toml"
	EnvironmentDir  = "environment"
	TestsDir        = "tests"
	SolutionDir     = "solution"
	// ReadmeFile is written at the export's root: what it holds and where
	// it came from. Its presence marks a folder WriteTasks may replace.
	ReadmeFile = "README.md"

	// WorkDir is the agent's working directory in the container: data/ holds
	// the inputs, output/ what the task asks for.
	WorkDir = "/app"
	// AnswerFile is where the agent writes its final answer, under WorkDir.
	AnswerFile = "answer.txt"
	// AgentUser is the unprivileged user the agent runs as.
	AgentUser = "agent"
	// BaseImage is the environment's base: Debian 12's Python 3.11, the
	// interpreter the sandbox's lock is made for. A tag, not a digest.
	BaseImage = "python:3.11-slim-bookworm"
)

//go:embed grade.py
var gradePy []byte

//go:embed solve.py
var solvePy []byte

// Options are what every task folder shares.
type Options struct {
	// Lock is the requirements file (with hashes) the environment installs:
	// the sandbox's lock, so the container holds what rollouts run with.
	Lock []byte
	// Source names the benchmark in the export's README (its path and
	// content hash).
	Source string
}

// Skip is a benchmark task that was not written, and why.
type Skip struct {
	Index  string
	Reason string
}

// Report is what WriteTasks wrote: the task folders' names in order, and
// the tasks it left out.
type Report struct {
	Tasks   []string
	Skipped []Skip
}

// WriteTasks writes each task of the benchmark folder benchDir (tasks.jsonl
// and data/) as a Harbor task folder under dst, named task-<index>. dst is
// written as dst.tmp and renamed when complete; an existing dst is replaced
// only when it is an earlier export (it holds ReadmeFile and nothing but
// task folders). A task whose input files are missing, are not plain local
// paths, lie behind a link, or whose checks do not validate is skipped and
// reported; no task at all is an error.
func WriteTasks(benchDir, dst string, opts Options) (Report, error) {
	tasks, err := bench.Load(benchDir)
	if err != nil {
		return Report{}, err
	}
	if err := replaceable(dst); err != nil {
		return Report{}, err
	}
	tmp := dst + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return Report{}, fmt.Errorf("harbor: %w", err)
	}
	rep, err := writeTasks(benchDir, tmp, tasks, opts)
	if err == nil && len(rep.Tasks) == 0 {
		err = fmt.Errorf("harbor: %s: no task could be written (%d skipped)", benchDir, len(rep.Skipped))
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, ReadmeFile), []byte(readme(rep, opts)), 0o644)
	}
	if err == nil {
		err = os.RemoveAll(dst)
	}
	if err == nil {
		err = os.Rename(tmp, dst)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return Report{}, err
	}
	return rep, nil
}

// replaceable refuses a dst that holds anything but an earlier export.
func replaceable(dst string) error {
	entries, err := os.ReadDir(dst)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("harbor: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	marked := false
	for _, e := range entries {
		switch {
		case e.Name() == ReadmeFile && e.Type().IsRegular():
			marked = true
		case e.IsDir() && strings.HasPrefix(e.Name(), "task-"):
		default:
			return fmt.Errorf("harbor: %s exists and holds %s, which an export does not write: give an empty or new folder", dst, e.Name())
		}
	}
	if !marked {
		return fmt.Errorf("harbor: %s exists and was not written by synth export --format harbor: give an empty or new folder", dst)
	}
	return nil
}

func writeTasks(benchDir, dst string, tasks []schemas.Task, opts Options) (Report, error) {
	var rep Report
	seen := map[string]bool{}
	for i := range tasks {
		t := &tasks[i]
		name := FolderName(t.Index, i)
		if seen[strings.ToLower(name)] {
			rep.Skipped = append(rep.Skipped, Skip{t.Index, fmt.Sprintf("its folder name %s is taken by an earlier task", name)})
			continue
		}
		if reason := unfit(benchDir, t); reason != "" {
			rep.Skipped = append(rep.Skipped, Skip{t.Index, reason})
			continue
		}
		seen[strings.ToLower(name)] = true
		if err := writeTask(benchDir, filepath.Join(dst, name), t, opts); err != nil {
			return rep, fmt.Errorf("harbor: task %s: %w", t.Index, err)
		}
		rep.Tasks = append(rep.Tasks, name)
	}
	return rep, nil
}

var unsafeRun = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// FolderName is the task folder's name: task-<index> with every run of
// characters outside [A-Za-z0-9_.-] made one "_", at most 64 bytes; the
// task's position i (from 1) when nothing of the index is left.
func FolderName(index string, i int) string {
	s := strings.Trim(unsafeRun.ReplaceAllString(index, "_"), "._")
	if len(s) > 58 {
		s = s[:58]
	}
	if s == "" {
		s = fmt.Sprintf("n%d", i+1)
	}
	return "task-" + s
}

// unfit says why a task cannot be written, or "".
func unfit(benchDir string, t *schemas.Task) string {
	if strings.TrimSpace(t.Query) == "" {
		return "its query is empty"
	}
	for _, f := range t.Files {
		if err := localName(f.Name); err != nil {
			return fmt.Sprintf("input %q: %v", f.Name, err)
		}
		if err := plainFile(filepath.Join(benchDir, bench.DataDir), f.Name); err != nil {
			return fmt.Sprintf("input data/%s: %v", f.Name, err)
		}
	}
	if err := checks.Validate(t); err != nil {
		return err.Error()
	}
	return ""
}

// localName accepts a relative, slash-separated path that stays where it
// is put: no "..", no absolute path, no backslash, no control or invalid
// UTF-8 bytes, no empty or dot-only part.
func localName(name string) error {
	if name == "" || !utf8.ValidString(name) || strings.ContainsRune(name, '\\') || !filepath.IsLocal(name) {
		return errors.New("not a plain relative path")
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return errors.New("a control character in the name")
		}
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || part == "." || part == ".." {
			return errors.New("an empty or dot part in the path")
		}
	}
	return nil
}

// plainFile checks that root/name is a regular file reached without
// following a link at any part.
func plainFile(root, name string) error {
	p := root
	parts := strings.Split(name, "/")
	for i, part := range parts {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil {
			return errors.New("missing")
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			return errors.New("is or lies behind a symlink")
		case i < len(parts)-1 && !fi.IsDir():
			return errors.New("a part of its path is not a folder")
		case i == len(parts)-1 && !fi.Mode().IsRegular():
			return errors.New("not a regular file")
		}
	}
	return nil
}

func writeTask(benchDir, dir string, t *schemas.Task, opts Options) error {
	files := map[string][]byte{
		InstructionFile:                       []byte(Instruction(t)),
		ConfigFile:                            []byte(TaskTOML(t)),
		EnvironmentDir + "/Dockerfile":        []byte(Dockerfile(len(t.Files) > 0)),
		EnvironmentDir + "/requirements.lock": opts.Lock,
		TestsDir + "/test.sh":                 []byte(testSh),
		TestsDir + "/grade.py":                gradePy,
		TestsDir + "/synth_checks.py":         []byte(checks.Library),
		SolutionDir + "/solve.sh":             []byte(solveSh),
		SolutionDir + "/solve.py":             solvePy,
	}
	cj, err := json.MarshalIndent(t.Checks, "", " ")
	if err != nil {
		return err
	}
	files[TestsDir+"/checks.json"] = append(cj, '\n')
	if t.Reference != nil {
		rj, err := json.MarshalIndent(t.Reference, "", " ")
		if err != nil {
			return err
		}
		files[SolutionDir+"/reference.json"] = append(rj, '\n')
	} else {
		for _, k := range []string{SolutionDir + "/solve.sh", SolutionDir + "/solve.py"} {
			delete(files, k)
		}
	}
	for rel, b := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(rel, ".sh") {
			mode = 0o755
		}
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(rel)), b, mode); err != nil {
			return err
		}
	}
	for _, f := range t.Files {
		src := filepath.Join(benchDir, bench.DataDir, filepath.FromSlash(f.Name))
		if err := copyFile(src, filepath.Join(dir, EnvironmentDir, "data", filepath.FromSlash(f.Name))); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, b []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, b, mode); err != nil {
		return err
	}
	return os.Chmod(path, mode)
}

// copyFile copies src, refusing a link at its last part (plainFile checked
// the rest), into dst.
func copyFile(src, dst string) error {
	in, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", src)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
