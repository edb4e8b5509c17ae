package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"synth/internal/proccpu"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run parses args, runs go test -json (or reads -in), reports, and returns
// the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("testreport", flag.ContinueOnError)
	fs.SetOutput(stderr)
	skips := fs.String("skips", "", "the allow-list of skips: one \"package test reason\" per line; under CI=true a skip it does not name fails the run")
	events := fs.String("events", "", "also write go test's JSON events to this file (for timings: go run ./internal/testreport -in FILE)")
	in := fs.String("in", "", "read go test -json events from this file (- for stdin) instead of running go test")
	slowest := fs.Int("slowest", 10, "list the N slowest top-level tests (0: none)")
	cpu := fs.Bool("cpu", false, "measure each top-level test's CPU time as go test's process tree shows it: exact for one test at a time (go test -p 1, no parallel tests); processes that leave the tree before they are reaped (a closed sandbox's interpreters) are not counted")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./internal/testreport [flags] -- [go test flags and packages]")
		fmt.Fprintln(stderr, "Runs go test -json with the remaining arguments and prints go test's usual ok / FAIL lines,")
		fmt.Fprintln(stderr, "the output of failing tests, every skipped test with its reason, and a closing line")
		fmt.Fprintln(stderr, "\"N passed, N failed, N skipped\". Exit status 1 when anything failed.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ci := os.Getenv("CI") == "true"
	var allow allowList
	allowName := "the allow-list"
	if *skips != "" {
		f, err := os.Open(*skips)
		if err != nil {
			fmt.Fprintf(stderr, "testreport: -skips: %v\n", err)
			return 2
		}
		allow, err = parseAllow(f, *skips)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "testreport: %v\n", err)
			return 2
		}
		allowName = *skips
	}

	var src io.Reader
	var wait func() error
	switch *in {
	case "":
		cmd := exec.Command("go", append([]string{"test", "-json"}, fs.Args()...)...)
		cmd.Stderr = stderr
		pipe, err := cmd.StdoutPipe()
		if err != nil {
			fmt.Fprintf(stderr, "testreport: %v\n", err)
			return 1
		}
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(stderr, "testreport: go test: %v\n", err)
			return 1
		}
		src, wait = pipe, cmd.Wait
	case "-":
		src = os.Stdin
	default:
		f, err := os.Open(*in)
		if err != nil {
			fmt.Fprintf(stderr, "testreport: -in: %v\n", err)
			return 2
		}
		defer f.Close()
		src = f
	}
	if *events != "" {
		f, err := os.Create(*events)
		if err != nil {
			fmt.Fprintf(stderr, "testreport: -events: %v\n", err)
			return 2
		}
		defer f.Close()
		src = io.TeeReader(src, f)
	}

	var cpuOf func() time.Duration
	if *cpu {
		if *in != "" {
			fmt.Fprintln(stderr, "testreport: -cpu measures a run of go test; it cannot be used with -in")
			return 2
		}
		cpuOf = proccpu.Tree
	}
	sum, err := report(src, stdout, allow, ci, cpuOf)
	if err != nil {
		fmt.Fprintf(stderr, "testreport: reading go test's events: %v\n", err)
		sum.Failed++
	}
	if wait != nil {
		if err := wait(); err != nil && sum.Failed == 0 {
			// go test failed with nothing to show for it in the events.
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				fmt.Fprintf(stderr, "testreport: go test: %v\n", err)
			} else {
				fmt.Fprintf(stdout, "FAIL\tgo test exited with status %d\n", exit.ExitCode())
			}
			sum.Failed++
		}
	}
	writeEnd(stdout, sum, *slowest, ci, *cpu, allowName)
	if sum.Failed > 0 {
		return 1
	}
	return 0
}
