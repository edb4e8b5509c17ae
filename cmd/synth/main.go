// Command synth builds training data and benchmarks for code-interpreter
// agents: it collects files, writes tasks, rolls out teacher trajectories in
// sandboxes, verifies them with unit tests, filters, and emits Parquet and a
// benchmark.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// commands holds the subcommand constructors; each cmd_*.go file adds its
// own in an init function.
var commands []func() *cobra.Command

func register(newCmd func() *cobra.Command) { commands = append(commands, newCmd) }

// usageError marks an error in how synth was called (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "synth",
		Short: "Build training data and benchmarks for code-interpreter agents",
		Long: `synth turns files into verified, multi-turn code-interpreter training data and a
benchmark: it collects files, writes a task per file by its type, lets a teacher
model solve each task in ReAct turns with a sandboxed Python interpreter, checks
the result with unit tests, filters, and writes PyInstruct-style Parquet plus a
PyBench-compatible benchmark.

Start with:
  synth build -o out          the whole pipeline, offline, on the built-in corpus
  synth launch slurm -o RUN --shards N   the same build as jobs on a Slurm cluster
                              (synth plan, rollout and merge run its parts anywhere)
  synth init                  write a commented synth.yaml to edit
  synth doctor                what this machine can run
  synth eval --bench out/bench --model M --base-url URL   score a model on the benchmark

The stages of a build, in the order its funnel prints them: collect, generate,
split, filter, validate, rollout, filter, emit, bench (synth build --help).

Exit codes:
  0    ok
  1    error: the work failed (a build with no dataset row, an eval that
       scored no task, an endpoint that refused, a file that cannot be read)
  2    usage: an unknown command or flag, a bad flag value, a missing or
       mistyped config file or key; nothing was run
  130  interrupted: Ctrl-C or SIGTERM; the work in flight finished and
       was journaled, and the same command resumes (Ctrl-C twice stops at once)`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	for _, g := range groups {
		root.AddGroup(&cobra.Group{ID: g.id, Title: g.title})
	}
	cobra.EnableCommandSorting = false // commandOrder's order
	byName := map[string]*cobra.Command{}
	for _, newCmd := range commands {
		c := newCmd()
		byName[c.Name()] = c
	}
	for _, o := range commandOrder {
		if c := byName[o.name]; c != nil {
			c.GroupID = o.group
			root.AddCommand(c)
			delete(byName, o.name)
		}
	}
	for _, c := range byName { // not in commandOrder: TestHelpGroups fails
		root.AddCommand(c)
	}
	root.SetHelpCommandGroupID("operate")
	root.SetCompletionCommandGroupID("operate")
	return root
}

// groups are the headings of synth --help, in order; commandOrder puts
// each command under one (TestHelpGroups fails for a command left out).
var groups = []struct{ id, title string }{
	{"build", "Build stages (synth build runs them all; plan, rollout and merge split it across machines):"},
	{"evaluate", "Evaluate:"},
	{"look", "Serve and view:"},
	{"operate", "Operate:"},
}

// commandOrder is the order of the commands under their headings: a
// build's stages in the order they run, then the rest.
var commandOrder = []struct{ name, group string }{
	{"build", "build"}, {"collect", "build"}, {"generate", "build"}, {"plan", "build"},
	{"rollout", "build"}, {"merge", "build"}, {"launch", "build"},
	{"eval", "evaluate"}, {"bench", "evaluate"}, {"import", "evaluate"}, {"replay", "evaluate"},
	{"view", "look"}, {"serve", "look"}, {"stats", "look"}, {"export", "look"},
	{"init", "operate"}, {"doctor", "operate"}, {"sandbox", "operate"}, {"version", "operate"},
}

func main() {
	collectSooner()
	os.Exit(run(os.Args[1:]))
}

// gcPercent is synth's default GOGC. What synth keeps (slim tasks, offsets
// into its journals) is small next to what it reads through (each record
// decoded whole), so Go's default of 100, which lets the heap grow to twice
// what is live, would let the garbage set the peak: at 50 a
// 100,000-task build peaks about a fifth lower, for a little more CPU in
// the collector (docs/PERFORMANCE.md, "Memory against the task count").
const gcPercent = 50

// collectSooner sets gcPercent unless GOGC says otherwise.
func collectSooner() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// run runs synth with args on the process's stdout and stderr and returns
// its exit status.
func run(args []string) int { return runIO(args, os.Stdout, os.Stderr) }

// runIO is run with the command's output on stdout and its messages and
// errors on stderr; tests call it to see the status main exits with.
func runIO(args []string, stdout, stderr io.Writer) int {
	// Libraries log skipped inputs with slog; show them as plain lines.
	slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{ReplaceAttr: dropTime})))
	ctx, stop := interruptContext()
	defer stop()
	root := newRoot()
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "synth:", err)
	var ue usageError
	switch {
	case errors.As(err, &ue) || isCobraUsage(err):
		return exitUsage
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		return exitInterrupted
	}
	return exitError
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// interruptContext is cancelled on the first SIGINT or SIGTERM; a second
// signal exits at once.
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			return
		}
		fmt.Fprintln(os.Stderr, "\nsynth: stopping: finishing the work in flight (Ctrl-C again to stop at once)")
		cancel()
		<-sigs
		fmt.Fprintln(os.Stderr, "synth: stopped at once")
		os.Exit(exitInterrupted)
	}()
	return ctx, func() { signal.Stop(sigs); cancel() }
}
