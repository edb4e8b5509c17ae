// Command planbench measures synth's own peak memory on a plan of n tasks:
// it generates a run directory whose tasks and rollouts are already made
// (pipeline.WriteBenchRun), runs `synth build` on it as a child process
// (plan, journal read-back, filters, emit: every stage whose cost grows
// with the task count, without a sandbox), and prints the child's peak
// resident memory (VmHWM, polled) and CPU time, with the bytes per
// task.
//
//	go run ./pipeline/cmd/planbench [-n 1000000] [-synth bin/synth] [-o DIR]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"synth/internal/proccpu"
	"synth/pipeline"
	"synth/rundir"
	"synth/runinfo"
)

func main() {
	n := flag.Int("n", 1_000_000, "training tasks in the plan")
	synth := flag.String("synth", "bin/synth", "the synth binary to measure")
	dir := flag.String("o", "", "run directory (default: a temporary one, removed afterwards)")
	flag.Parse()
	if err := run(*n, *synth, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "planbench:", err)
		os.Exit(1)
	}
}

func run(n int, synth, dir string) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "planbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	t0 := time.Now()
	if err := pipeline.WriteBenchRun(dir, n, 1); err != nil {
		return err
	}
	fmt.Printf("planbench: %d tasks and rollouts generated in %.1f s\n", n, time.Since(t0).Seconds())

	var out bytes.Buffer
	cmd := exec.Command(synth, "build", "-o", dir, "--bench-fraction", "0")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Env = append(os.Environ(), "CI=true")
	t1 := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	stop := make(chan struct{})
	peak := make(chan int64)
	go func() { peak <- watchHWM(cmd.Process.Pid, stop) }()
	err := cmd.Wait()
	wall := time.Since(t1)
	close(stop)
	hwm := <-peak
	if err != nil {
		return fmt.Errorf("%s build: %w\n%s", synth, err, tail(out.Bytes(), 4000))
	}
	rows, err := rowsOf(dir)
	if err != nil {
		return err
	}
	cpu := time.Duration(0)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	fmt.Printf("planbench: synth build, %d tasks -> %d rows: peak RSS %.1f MiB (%.0f B/task), wall %.1f s, CPU %.1f s\n",
		n, rows, float64(hwm)/(1<<20), float64(hwm)/float64(n), wall.Seconds(), cpu.Seconds())
	return nil
}

// watchHWM polls the process's VmHWM, its own peak resident memory (not
// that of the Python interpreters it starts, which getrusage would fold
// in), until stop is closed, and returns the last value read in bytes.
// VmHWM only grows, so the figure misses at most the growth of the last
// poll interval before the process exits.
func watchHWM(pid int, stop <-chan struct{}) int64 {
	var hwm int64
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return hwm
		case <-tick.C:
		}
		if n, err := proccpu.PeakRSS(pid); err == nil && n > hwm {
			hwm = n
		}
	}
}

// rowsOf is the rows run.json says the build wrote.
func rowsOf(dir string) (int, error) {
	var info runinfo.RunInfo
	found, err := rundir.ReadRunInfo(dir, &info)
	if err != nil {
		return 0, err
	}
	if !found {
		return 0, fmt.Errorf("%s has no %s", dir, rundir.RunInfo)
	}
	return info.Counts["rows"], nil
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
