package launch

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Job is one submitted sbatch script.
type Job struct {
	Script string
	ID     string
}

// Submit submits the scripts WriteSlurm wrote, in order, each after the one
// before has succeeded (afterok; after every task of the rollout array).
// sbatch is the command to run, "sbatch" unless a test says otherwise.
func Submit(ctx context.Context, sbatch string, scripts []string) ([]Job, error) {
	var jobs []Job
	for _, sc := range scripts {
		args := []string{"--parsable"}
		if len(jobs) > 0 {
			args = append(args, "--dependency=afterok:"+jobs[len(jobs)-1].ID)
		}
		args = append(args, sc)
		cmd := exec.CommandContext(ctx, sbatch, args...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return jobs, fmt.Errorf("%s %s: %w: %s", sbatch, strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
		}
		id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";") // --parsable: id[;cluster]
		if id == "" {
			return jobs, fmt.Errorf("%s %s printed no job id", sbatch, strings.Join(args, " "))
		}
		jobs = append(jobs, Job{Script: sc, ID: id})
	}
	return jobs, nil
}

// Commands are the sbatch command lines Submit would run, for --dry-run.
func Commands(scripts []string) []string {
	var out []string
	for i, sc := range scripts {
		dep := ""
		if i > 0 {
			dep = fmt.Sprintf("--dependency=afterok:$JOB%d ", i)
		}
		out = append(out, fmt.Sprintf("JOB%d=$(sbatch --parsable %s%s)", i+1, dep, shellQuote(sc)))
	}
	return out
}
