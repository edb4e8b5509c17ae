package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// outcome is what one mutant's run came to.
type outcome int

const (
	killed outcome = iota
	survived
	broken // the mutant, not the tests, is wrong: text not found, no build
)

// run parses args, runs the mutants and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mutate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	list := fs.String("mutants", "internal/mutate/mutants.txt", "the list of mutants, relative to -root")
	root := fs.String("root", "", "the repository to copy (default: the git work tree holding the current directory)")
	sample := fs.Bool("sample", false, "run only the mutants marked sample (what make test runs)")
	only := fs.String("only", "", "run only the mutants whose name matches this regular expression")
	min := fs.Float64("min", 95, "the least kill rate, in percent of the mutants not marked equivalent, that exits 0")
	keep := fs.Bool("keep", false, "keep the temporary copy of the tree and print where it is")
	timeout := fs.Duration("timeout", 15*time.Minute, "bound on each go test run")
	blind := fs.Bool("blind", false, "generate the mutants from the guard functions of -guards (each comparison negated, each early return deleted) instead of reading -mutants")
	guards := fs.String("guards", "internal/mutate/guards.txt", "with -blind: the guard functions and the tests that hold them, relative to -root")
	equivs := fs.String("equivalents", "internal/mutate/equivalents.txt", "with -blind: the blind mutants no test can tell apart, with a reason each, relative to -root")
	listOnly := fs.Bool("list", false, "print the selected mutants (name, line, change) and run nothing")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./internal/mutate [flags]")
		fmt.Fprintln(stderr, "Applies each mutant of the list to a temporary copy of the tree, runs its tests there and")
		fmt.Fprintln(stderr, "reports which mutants were killed and which survived, then the kill rate.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return 2
	}
	if *root == "" {
		out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
		if err != nil {
			fmt.Fprintf(stderr, "mutate: finding the repository: %v (give -root)\n", err)
			return 2
		}
		*root = strings.TrimSpace(string(out))
	}
	var keepRE *regexp.Regexp
	if *only != "" {
		var err error
		if keepRE, err = regexp.Compile(*only); err != nil {
			fmt.Fprintf(stderr, "mutate: -only: %v\n", err)
			return 2
		}
	}
	load := func(root string) ([]mutant, error) { return loadList(root, *list) }
	if *blind {
		load = func(root string) ([]mutant, error) { return loadBlind(root, *guards, *equivs, keepRE == nil) }
	}
	all, err := load(*root)
	if err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 2
	}
	var ms []mutant
	for _, m := range all {
		if (!*sample || m.Sample) && (keepRE == nil || keepRE.MatchString(m.Name)) {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		fmt.Fprintln(stderr, "mutate: no mutant selected")
		return 2
	}
	if *listOnly {
		for _, mu := range ms {
			eq := ""
			if mu.Equivalent != "" {
				eq = "  (equivalent: " + mu.Equivalent + ")"
			}
			fmt.Fprintf(stdout, "%s  line %d: %q -> %q%s\n", mu.Name, mu.line, mu.Old, mu.New, eq)
		}
		return 0
	}

	tree, err := os.MkdirTemp("", "synth-mutate-")
	if err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 1
	}
	if *keep {
		fmt.Fprintf(stdout, "tree: %s\n", tree)
	} else {
		defer os.RemoveAll(tree)
	}
	if err := copyTree(*root, tree); err != nil {
		fmt.Fprintf(stderr, "mutate: copying the tree: %v\n", err)
		return 1
	}
	m := mutator{tree: tree, timeout: *timeout, out: stdout}
	if err := m.baseline(ms); err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 1
	}
	var nKilled, nMust, nBroken int
	var survivors, equivKilled []string
	for _, mu := range ms {
		o, why, took := m.try(mu)
		tag := map[outcome]string{killed: "killed", survived: "SURVIVED", broken: "BROKEN"}[o]
		if o == survived && mu.Equivalent != "" {
			tag = "equivalent"
		}
		fmt.Fprintf(stdout, "%-10s %-34s %s (%s, %.1fs)\n", tag, mu.Name, mu.File, mu.Pkg, took.Seconds())
		if why != "" {
			fmt.Fprintf(stdout, "           %s\n", why)
		}
		switch {
		case o == broken:
			nBroken++
		case mu.Equivalent != "" && o == killed:
			equivKilled = append(equivKilled, mu.Name)
		case mu.Equivalent != "":
		case o == killed:
			nMust++
			nKilled++
		default:
			nMust++
			survivors = append(survivors, mu.Name)
		}
	}
	rate := 100.0
	if nMust > 0 {
		rate = 100 * float64(nKilled) / float64(nMust)
	}
	fmt.Fprintf(stdout, "mutants: %d run, %d marked equivalent; killed %d of %d (%.1f%%)\n", len(ms), len(ms)-nMust-nBroken, nKilled, nMust, rate)
	if len(survivors) > 0 {
		fmt.Fprintf(stdout, "survivors: %s\n", strings.Join(survivors, ", "))
	}
	code := 0
	if len(equivKilled) > 0 {
		fmt.Fprintf(stdout, "marked equivalent but killed (drop the mark): %s\n", strings.Join(equivKilled, ", "))
		code = 1
	}
	if nBroken > 0 {
		fmt.Fprintf(stdout, "%d mutants are broken: fix the list\n", nBroken)
		code = 1
	}
	if rate < *min {
		fmt.Fprintf(stdout, "kill rate %.1f%% is below %.1f%%\n", rate, *min)
		code = 1
	}
	return code
}

// mutator runs mutants in a copy of the tree.
type mutator struct {
	tree    string
	timeout time.Duration
	out     io.Writer
}

// baseline runs each distinct set of tests the mutants name on the
// unmutated copy: a test that fails there would kill every mutant.
func (m mutator) baseline(ms []mutant) error {
	done := map[target]bool{}
	for _, mu := range ms {
		for _, tg := range mu.targets() {
			if done[tg] {
				continue
			}
			done[tg] = true
			start := time.Now()
			if out, err := m.goTest(tg); err != nil {
				return fmt.Errorf("unmutated, go test -run '%s' %s fails: %v\n%s", tg.Run, tg.Pkg, err, tail(out, 2000))
			}
			fmt.Fprintf(m.out, "baseline   %-34s ok (%.1fs)\n", tg.Pkg+" "+tg.Run, time.Since(start).Seconds())
		}
	}
	return nil
}

// try applies mu to the copy, runs its tests and undoes it. A mutant with
// downstream tests is killed only when the tests of every package it names
// fail; the first package whose tests pass is named as where it survived.
func (m mutator) try(mu mutant) (outcome, string, time.Duration) {
	start := time.Now()
	p := filepath.Join(m.tree, filepath.FromSlash(mu.File))
	orig, err := os.ReadFile(p)
	if err != nil {
		return broken, err.Error(), 0
	}
	var mutated []byte
	switch {
	case mu.end > 0:
		if mu.end > len(orig) || string(orig[mu.start:mu.end]) != mu.Old {
			return broken, fmt.Sprintf("%q is no longer at bytes %d-%d of %s", mu.Old, mu.start, mu.end, mu.File), 0
		}
		mutated = append(append(append([]byte{}, orig[:mu.start]...), mu.New...), orig[mu.end:]...)
	default:
		if n := bytes.Count(orig, []byte(mu.Old)); n != 1 {
			return broken, fmt.Sprintf("the old text occurs %d times in %s, want once", n, mu.File), 0
		}
		mutated = bytes.Replace(orig, []byte(mu.Old), []byte(mu.New), 1)
	}
	st, err := os.Stat(p)
	if err != nil {
		return broken, err.Error(), 0
	}
	if err := os.WriteFile(p, mutated, st.Mode().Perm()); err != nil {
		return broken, err.Error(), 0
	}
	defer func() {
		if err := os.WriteFile(p, orig, st.Mode().Perm()); err != nil {
			panic(fmt.Sprintf("mutate: restoring %s in the copy: %v", p, err))
		}
	}()
	var by []string
	for _, tg := range mu.targets() {
		out, err := m.goTest(tg)
		switch {
		case err == nil:
			where := ""
			if len(mu.Downstream) > 0 {
				where = "survived in " + tg.Pkg + " " + tg.Run
			}
			return survived, where, time.Since(start)
		case strings.Contains(out, "[build failed]") || strings.Contains(out, "[setup failed]"):
			return broken, "does not build: " + firstLines(out, 6), time.Since(start)
		}
		if len(mu.Downstream) > 0 {
			by = append(by, tg.Pkg+" "+failed(out))
		} else {
			by = append(by, failed(out))
		}
	}
	return killed, strings.Join(by, "; "), time.Since(start)
}

// goTest runs one package's tests in the copy.
func (m mutator) goTest(mu target) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), m.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool(), "test", "-count=1", "-run", mu.Run, mu.Pkg)
	cmd.Dir = m.tree
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		err = errors.Join(err, fmt.Errorf("timed out after %s", m.timeout))
	}
	return string(out), err
}

// goTool is the go command: on PATH, else the toolchain's own.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	if p := filepath.Join(os.Getenv("GOROOT"), "bin", "go"); os.Getenv("GOROOT") != "" {
		return p
	}
	return "/usr/local/go/bin/go"
}

// copyTree copies the files git tracks, and those it would (untracked, not
// ignored), from root to dst.
func copyTree(root, dst string) error {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %w", err)
	}
	for name := range strings.SplitSeq(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, filepath.FromSlash(name))
		st, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			return err
		}
		to := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if st.Mode()&os.ModeSymlink != 0 {
			l, err := os.Readlink(src)
			if err != nil {
				return err
			}
			if err := os.Symlink(l, to); err != nil {
				return err
			}
			continue
		}
		if !st.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, data, st.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

// failed is the first failing test go test's output names.
func failed(out string) string {
	for l := range strings.SplitSeq(out, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "--- FAIL: ") {
			return "by " + strings.TrimSuffix(strings.Fields(t)[2], ":")
		}
	}
	return "by go test: " + firstLines(out, 3)
}

func firstLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[:n]
	}
	return strings.Join(ls, " | ")
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
