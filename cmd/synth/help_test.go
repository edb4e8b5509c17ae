package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"synth/pyenv/pyenvtest"
)

// TestHelpGroups: synth --help lists every command under one of its
// headings, and writes down the exit codes.
func TestHelpGroups(t *testing.T) {
	out, code := synthStatus(t, "--help")
	if code != exitOK {
		t.Fatalf("synth --help: exit %d", code)
	}
	for _, g := range groups {
		if !strings.Contains(out, "\n"+g.title+"\n") {
			t.Errorf("synth --help lacks the heading %q", g.title)
		}
	}
	if strings.Contains(out, "Additional Commands:") || strings.Contains(out, "Available Commands:") {
		t.Errorf("a command is under no heading (add it to commandOrder):\n%s", out)
	}
	for _, want := range []string{"Exit codes:", "\n  0    ok", "\n  1    error", "\n  2    usage", "\n  130  interrupted"} {
		if !strings.Contains(out, want) {
			t.Errorf("synth --help lacks %q", want)
		}
	}
}

// TestHelpUseLines: a command that takes a folder or a file says so in
// its Use line, with a placeholder.
func TestHelpUseLines(t *testing.T) {
	for _, args := range [][]string{{"build"}, {"rollout"}, {"merge"}, {"export"}, {"launch", "slurm"}, {"doctor"}} {
		out, _ := synthStatus(t, append(args, "--help")...)
		use := regexp.MustCompile(`(?m)^Usage:\n  (.*)$`).FindStringSubmatch(out)
		if use == nil || !regexp.MustCompile(`\b(DIR|FILE|PATH)\b`).MatchString(use[1]) {
			t.Errorf("synth %v --help: Use line %q names no argument", args, use)
		}
	}
}

// buildHelpStages are the stage names synth build --help lists, in order.
func buildHelpStages(t *testing.T) []string {
	out, _ := synthStatus(t, "build", "--help")
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+)  +\S`).FindAllStringSubmatch(out, -1) {
		names = append(names, m[1])
	}
	return names
}

// funnelStages are the stage names of the funnel a build printed, in order.
func funnelStages(out string) []string {
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^ *([a-z]+) +(?:-|\d+) +\d+  `).FindAllStringSubmatch(out, -1) {
		names = append(names, m[1])
	}
	return names
}

// TestInterruptExits130: Ctrl-C stops a build with status 130, after the
// work in flight, and says how it stopped.
func TestInterruptExits130(t *testing.T) {
	pyenvtest.Python(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSynth$")
	cmd.Env = append(os.Environ(), "SYNTH_HELPER_ARGS=build\t-o\t"+filepath.Join(t.TempDir(), "out"))
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var seen strings.Builder
	for sc.Scan() {
		seen.WriteString(sc.Text() + "\n")
		if strings.HasPrefix(sc.Text(), "collect:") {
			break
		}
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	go func() {
		for sc.Scan() {
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("the build did not stop within 2 minutes of Ctrl-C\n%s", seen.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Errorf("an interrupted build: %v, want exit status %d\n%s", err, exitInterrupted, seen.String())
	}
}

// TestHelperSynth is synth itself, run by TestInterruptExits130 in a
// process of its own (so that its signal reaches only that process).
func TestHelperSynth(t *testing.T) {
	args := os.Getenv("SYNTH_HELPER_ARGS")
	if args == "" {
		return // a plain test run: nothing to do
	}
	os.Exit(run(strings.Split(args, "\t")))
}
