package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// mutant is one source change and the tests that must notice it.
type mutant struct {
	Name       string
	File       string // slash path from the repository's root
	Old, New   string // Old occurs exactly once in File
	Pkg        string // the package whose tests run, "./checks/"
	Run        string // go test -run's pattern
	Sample     bool   // one of the fast few make test runs
	Equivalent string // why no test can tell it apart; "" for a mutant that must die
	// Downstream are more packages whose tests must each notice the same
	// change: a guard that build, eval and serve all rely on dies in each.
	Downstream []target
	line       int
	// start and end, for a blind mutant, are Old's byte offsets in File:
	// New replaces that range, wherever else Old occurs.
	start, end int
}

// target is one package's tests: go test -run Run Pkg.
type target struct{ Pkg, Run string }

// targets are the tests a mutant runs: its own, then its downstream ones.
func (m mutant) targets() []target {
	return append([]target{{m.Pkg, m.Run}}, m.Downstream...)
}

// parseMutants reads a list of mutants: blocks of "key: value" lines
// separated by blank lines, "#" starting a comment line.
func parseMutants(r io.Reader, name string) ([]mutant, error) {
	var out []mutant
	var cur *mutant
	var keys map[string]bool // the keys cur has
	seen := map[string]bool{}
	finish := func() error {
		if cur == nil {
			return nil
		}
		m := *cur
		cur = nil
		switch {
		case m.Name == "":
			return fmt.Errorf("%s:%d: a mutant without a name", name, m.line)
		case seen[m.Name]:
			return fmt.Errorf("%s:%d: mutant %s listed twice", name, m.line, m.Name)
		case m.File == "" || m.Old == "" || m.Pkg == "" || m.Run == "":
			return fmt.Errorf("%s:%d: mutant %s needs file, old, pkg and run", name, m.line, m.Name)
		case m.Old == m.New:
			return fmt.Errorf("%s:%d: mutant %s changes nothing", name, m.line, m.Name)
		}
		seen[m.Name] = true
		out = append(out, m)
		return nil
	}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if strings.TrimSpace(line) == "" {
			if err := finish(); err != nil {
				return nil, err
			}
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want \"key: value\", got %q", name, n, line)
		}
		val = strings.TrimPrefix(val, " ")
		if strings.HasPrefix(val, `"`) {
			s, err := strconv.Unquote(val)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %v", name, n, key, err)
			}
			val = s
		}
		if cur == nil {
			cur = &mutant{line: n}
			keys = map[string]bool{}
		}
		if keys[key] && key != "downstream" {
			return nil, fmt.Errorf("%s:%d: %s given twice in one mutant: a blank line must separate mutants", name, n, key)
		}
		keys[key] = true
		switch key {
		case "name":
			cur.Name = val
		case "file":
			cur.File = val
		case "old":
			cur.Old = val
		case "new":
			cur.New = val
		case "pkg":
			cur.Pkg = val
		case "run":
			cur.Run = val
		case "sample":
			b, err := strconv.ParseBool(val)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: sample: %v", name, n, err)
			}
			cur.Sample = b
		case "equivalent":
			cur.Equivalent = val
		case "downstream":
			pkg, run, ok := strings.Cut(val, " ")
			if !ok || pkg == "" || strings.TrimSpace(run) == "" {
				return nil, fmt.Errorf("%s:%d: downstream: want \"PKG RUN\", e.g. \"./eval/ TestX\", got %q", name, n, val)
			}
			cur.Downstream = append(cur.Downstream, target{pkg, strings.TrimSpace(run)})
		default:
			return nil, fmt.Errorf("%s:%d: unknown key %q (want name, file, old, new, pkg, run, downstream, sample or equivalent)", name, n, key)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return out, nil
}
