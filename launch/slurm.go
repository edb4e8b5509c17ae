package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Slurm is how the sbatch scripts ask for resources. Empty fields are left
// to the cluster's defaults.
type Slurm struct {
	Run         string   // the run directory, absolute, on a filesystem every node sees
	Synth       string   // the synth binary, absolute, as the nodes see it
	Config      string   // the config file plan reads, absolute
	Shards      int      // rollout array tasks
	Partition   string   // --partition
	Time        string   // --time, e.g. 04:00:00
	CPUsPerTask int      // --cpus-per-task
	Mem         string   // --mem, e.g. 16G
	Extra       []string // more sbatch options, each as written on the command line, e.g. --account=abc
	Workdir     string   // --chdir: where relative paths in the config resolve
}

// Script names in RUN/slurm, in the order they run.
const (
	PlanScript    = "plan.sbatch"
	RolloutScript = "rollout.sbatch"
	MergeScript   = "merge.sbatch"
)

// Dir is the folder of a run's Slurm scripts and logs.
func Dir(run string) string { return filepath.Join(run, "slurm") }

// WriteSlurm writes the three sbatch scripts into RUN/slurm and returns
// their paths: plan, an array of s.Shards rollouts (array index = shard
// number, so one shard is resubmitted with sbatch --array=I), and merge.
func WriteSlurm(s Slurm) ([]string, error) {
	if s.Shards < 1 {
		return nil, fmt.Errorf("slurm: --shards %d: want at least 1", s.Shards)
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	dir := Dir(s.Run)
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		return nil, fmt.Errorf("slurm: %w", err)
	}
	q := shellQuote
	scripts := []struct{ name, job, array, log, cmd string }{
		{PlanScript, "plan", "", "plan-%j.out", fmt.Sprintf("%s plan -o %s --config %s", q(s.Synth), q(s.Run), q(s.Config))},
		{RolloutScript, "rollout", fmt.Sprintf("1-%d", s.Shards), "rollout-%A_%a.out",
			fmt.Sprintf("%s rollout -o %s --shard auto --shards %d", q(s.Synth), q(s.Run), s.Shards)},
		{MergeScript, "merge", "", "merge-%j.out", fmt.Sprintf("%s merge -o %s --shards %d", q(s.Synth), q(s.Run), s.Shards)},
	}
	var paths []string
	for _, sc := range scripts {
		var b strings.Builder
		b.WriteString("#!/bin/bash\n")
		b.WriteString("# Written by synth launch slurm. Resubmit one shard with: sbatch --array=I " + q(filepath.Join(dir, RolloutScript)) + "\n")
		opt := func(k, v string) {
			if v != "" {
				fmt.Fprintf(&b, "#SBATCH --%s=%s\n", k, v)
			}
		}
		opt("job-name", "synth-"+sc.job)
		opt("output", filepath.Join(dir, "logs", sc.log))
		opt("chdir", s.Workdir)
		opt("array", sc.array)
		opt("partition", s.Partition)
		opt("time", s.Time)
		if s.CPUsPerTask > 0 {
			opt("cpus-per-task", fmt.Sprint(s.CPUsPerTask))
		}
		opt("mem", s.Mem)
		for _, a := range s.Extra {
			fmt.Fprintf(&b, "#SBATCH %s\n", a)
		}
		b.WriteString("set -eu\nexport CI=true\nexec " + sc.cmd + "\n")
		p := filepath.Join(dir, sc.name)
		if err := os.WriteFile(p, []byte(b.String()), 0o755); err != nil {
			return nil, fmt.Errorf("slurm: %w", err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// check refuses a value that could change what the scripts run: a control
// character anywhere (a newline would start a command), a space in an
// #SBATCH value, an --sbatch that is not one option.
func (s Slurm) check() error {
	vals := []value{{"-o", s.Run}, {"--synth", s.Synth}, {"--config", s.Config}, {"the working directory", s.Workdir},
		{"--partition", s.Partition}, {"--time", s.Time}, {"--mem", s.Mem}}
	for _, a := range s.Extra {
		vals = append(vals, value{"--sbatch", a})
	}
	if err := noControl("slurm", vals...); err != nil {
		return err
	}
	if err := noSpace("slurm", value{"-o", s.Run}, value{"the working directory", s.Workdir},
		value{"--partition", s.Partition}, value{"--time", s.Time}, value{"--mem", s.Mem}); err != nil {
		return err
	}
	for _, a := range s.Extra {
		if !strings.HasPrefix(a, "-") {
			return fmt.Errorf("slurm: --sbatch %q: want one sbatch option, e.g. --account=abc or --qos=high", a)
		}
	}
	return nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
