package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// event is one line of go test -json (cmd/test2json's TestEvent).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	Elapsed     float64
	ImportPath  string // build-output, build-fail
	FailedBuild string
}

// A skip is a skipped test and the reason it gave.
type skip struct {
	Package, Test, Reason string
	Allowed               bool
}

// A timing is how long one test ran, and the CPU its process tree used
// meanwhile (when measured).
type timing struct {
	Package, Test string
	Elapsed, CPU  time.Duration
}

// summary is what a run proved.
type summary struct {
	Passed, Failed int
	Skips          []skip
	Slowest        []timing
}

// testState is one test's output until it ends.
type testState struct {
	name     string
	output   []string
	failed   bool
	cpuStart time.Duration
}

// pkgState is one package's tests until it ends.
type pkgState struct {
	tests  map[string]*testState
	order  []*testState
	output []string // package-level output besides its ok / FAIL line
	failed int      // tests that failed
}

// reporter turns go test -json events into go test's usual output.
type reporter struct {
	w      io.Writer
	allow  allowList
	ci     bool
	pkgs   map[string]*pkgState
	builds map[string][]string // build output by import path
	sum    summary
	// cpu, when set, reads the CPU time used so far by go test and every
	// process below it; a top-level test's CPU is its difference from the
	// test's start to its end (exact only when one test runs at a time:
	// go test -p 1, no t.Parallel). A process reparented away from the
	// tree before it is reaped takes its CPU with it.
	cpu func() time.Duration
}

// report reads the events of r, writes the per-package lines and failing
// output to w as packages end, and returns the summary. Lines of r that are
// not JSON (go test's own messages) are copied to w.
func report(r io.Reader, w io.Writer, allow allowList, ci bool, cpu func() time.Duration) (summary, error) {
	rp := &reporter{w: w, allow: allow, ci: ci, pkgs: map[string]*pkgState{}, builds: map[string][]string{}, cpu: cpu}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var ev event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		rp.event(ev)
	}
	// A package whose stream was cut off (go test killed) never ended.
	for name, p := range rp.pkgs {
		rp.flush(name, p)
		fmt.Fprintf(w, "FAIL\t%s\t(no end: go test stopped)\n", name)
		rp.sum.Failed++
	}
	return rp.sum, sc.Err()
}

func (rp *reporter) pkg(name string) *pkgState {
	p := rp.pkgs[name]
	if p == nil {
		p = &pkgState{tests: map[string]*testState{}}
		rp.pkgs[name] = p
	}
	return p
}

func (rp *reporter) event(ev event) {
	switch ev.Action {
	case "build-output":
		rp.builds[ev.ImportPath] = append(rp.builds[ev.ImportPath], ev.Output)
		return
	case "build-fail":
		return
	case "start":
		rp.pkg(ev.Package)
		return
	}
	p := rp.pkg(ev.Package)
	if ev.Test == "" {
		rp.packageEvent(ev, p)
		return
	}
	ts := p.tests[ev.Test]
	if ts == nil {
		ts = &testState{name: ev.Test}
		p.tests[ev.Test] = ts
		p.order = append(p.order, ts)
	}
	switch ev.Action {
	case "run":
		if rp.cpu != nil && !strings.Contains(ev.Test, "/") {
			ts.cpuStart = rp.cpu()
		}
	case "output":
		ts.output = append(ts.output, ev.Output)
	case "pass":
		rp.sum.Passed++
		rp.time(ev, ts)
	case "fail":
		ts.failed = true
		p.failed++
		rp.sum.Failed++
		rp.time(ev, ts)
	case "skip":
		s := skip{Package: ev.Package, Test: ev.Test, Reason: reason(ts.output)}
		s.Allowed = rp.allow.allows(s.Package, s.Test)
		if rp.ci && !s.Allowed {
			rp.sum.Failed++
		}
		rp.sum.Skips = append(rp.sum.Skips, s)
	}
}

// time records a top-level test's wall time (a subtest's is in its parent's).
func (rp *reporter) time(ev event, ts *testState) {
	if strings.Contains(ev.Test, "/") {
		return
	}
	tm := timing{Package: ev.Package, Test: ev.Test, Elapsed: time.Duration(ev.Elapsed * float64(time.Second))}
	if rp.cpu != nil {
		tm.CPU = rp.cpu() - ts.cpuStart
	}
	rp.sum.Slowest = append(rp.sum.Slowest, tm)
}

// packageEvent handles a package's own output and its end.
func (rp *reporter) packageEvent(ev event, p *pkgState) {
	switch ev.Action {
	case "output":
		p.output = append(p.output, ev.Output)
		return
	case "pass", "fail", "skip":
	default:
		return
	}
	if ev.FailedBuild != "" {
		for _, l := range rp.builds[ev.FailedBuild] {
			io.WriteString(rp.w, l)
		}
	}
	rp.flush(ev.Package, p)
	if ev.Action == "fail" && p.failed == 0 {
		// A build failure, a panic outside a test, a timeout: the package
		// failed with no failing test to count.
		rp.sum.Failed++
	}
	delete(rp.pkgs, ev.Package)
}

// flush writes the output of p's failed tests in the order they started,
// then the package's own lines (its ok / FAIL line, and when it failed the
// rest of what it printed).
func (rp *reporter) flush(name string, p *pkgState) {
	for _, ts := range p.order {
		if !ts.failed {
			continue
		}
		// go test prints a failed test's --- FAIL line, then what it logged.
		for _, l := range ts.output {
			if strings.HasPrefix(strings.TrimLeft(l, " "), "--- FAIL") {
				io.WriteString(rp.w, l)
			}
		}
		for _, l := range ts.output {
			if !progress(l) && !strings.HasPrefix(strings.TrimLeft(l, " "), "--- FAIL") {
				io.WriteString(rp.w, l)
			}
		}
	}
	failed := slices.ContainsFunc(p.output, func(l string) bool { return strings.HasPrefix(l, "FAIL\t") })
	for _, l := range p.output {
		switch {
		case l == "PASS\n", l == "FAIL\n", progress(l):
		case failed, strings.HasPrefix(l, "ok  \t"), strings.HasPrefix(l, "?   \t"), strings.HasPrefix(l, "FAIL\t"):
			io.WriteString(rp.w, l)
		}
	}
}

// progress reports whether l is one of test2json's progress lines, which go
// test without -v does not print.
func progress(l string) bool {
	t := strings.TrimLeft(l, " ")
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS", "--- SKIP"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// reason is what a skipped test logged: its t.Skip message, with the file
// and line that gave it.
func reason(output []string) string {
	var parts []string
	for _, l := range output {
		if progress(l) {
			continue
		}
		if t := strings.TrimSpace(l); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " ")
}

// writeEnd writes the skip list, the n slowest tests and the closing line.
func writeEnd(w io.Writer, s summary, n int, ci, cpu bool, allowName string) {
	if len(s.Skips) > 0 {
		fmt.Fprintf(w, "\n%d skipped:\n", len(s.Skips))
		for _, sk := range s.Skips {
			mark := "allowed by " + allowName
			if !sk.Allowed {
				mark = "NOT on " + allowName
				if ci {
					mark += ": a failure under CI=true"
				}
			}
			fmt.Fprintf(w, "  %s %s: %s (%s)\n", sk.Package, sk.Test, sk.Reason, mark)
		}
	}
	if n > 0 && len(s.Slowest) > 0 {
		t := slices.Clone(s.Slowest)
		slices.SortStableFunc(t, func(a, b timing) int { return cmp.Compare(b.Elapsed, a.Elapsed) })
		t = t[:min(n, len(t))]
		if cpu {
			fmt.Fprintf(w, "\nslowest %d tests (wall time, CPU time of go test's process tree):\n", len(t))
		} else {
			fmt.Fprintf(w, "\nslowest %d tests (wall time):\n", len(t))
		}
		for _, x := range t {
			if cpu {
				fmt.Fprintf(w, "  %8.1fs %8.1fs CPU  %s %s\n", x.Elapsed.Seconds(), x.CPU.Seconds(), x.Package, x.Test)
			} else {
				fmt.Fprintf(w, "  %8.1fs  %s %s\n", x.Elapsed.Seconds(), x.Package, x.Test)
			}
		}
	}
	skipped := len(s.Skips)
	if ci {
		for _, sk := range s.Skips {
			if !sk.Allowed {
				skipped-- // counted as failed
			}
		}
	}
	fmt.Fprintf(w, "\n%d passed, %d failed, %d skipped\n", s.Passed, s.Failed, skipped)
}
