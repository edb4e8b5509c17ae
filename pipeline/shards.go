package pipeline

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"synth/config"
	"synth/rundir"
	"synth/runinfo"
)

var shardName = regexp.MustCompile(`^([0-9]+)-of-([0-9]+)$`)

// finishedShards reads every shard's shard.json, in shard order, and fails
// naming the first shard that is missing, unfinished or of another plan.
func finishedShards(dir, plan string, n int) ([]runinfo.ShardInfo, error) {
	root := filepath.Join(dir, rundir.ShardsDir)
	entries, err := os.ReadDir(root)
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("merge: %w", err)
	}
	counts := map[int]bool{}
	for _, e := range entries {
		if m := shardName.FindStringSubmatch(e.Name()); m != nil && e.IsDir() {
			c, _ := strconv.Atoi(m[2])
			counts[c] = true
		}
	}
	switch {
	case n > 0:
	case len(counts) == 0:
		return nil, fmt.Errorf("merge: %s has no shards: run synth rollout -o %s --shard I/N for I = 1..N first", root, dir)
	case len(counts) > 1:
		return nil, fmt.Errorf("merge: %s holds shards of several splits (%v of them): pass --shards N to name the one to merge", root, slices.Sorted(maps.Keys(counts)))
	default:
		for c := range counts {
			n = c
		}
	}
	var out []runinfo.ShardInfo
	for i := 1; i <= n; i++ {
		s := runinfo.Shard{Index: i, Count: n}
		sdir := filepath.Join(root, s.Name())
		si, err := runinfo.ReadShardInfo(sdir)
		switch {
		case err != nil:
			return nil, fmt.Errorf("merge: shard %s: %w", s.Name(), err)
		case si == nil:
			return nil, fmt.Errorf("merge: shard %s is missing (no %s): run synth rollout -o %s --shard %s", s.Name(), filepath.Join(sdir, rundir.Shard), dir, s.Flag())
		case si.Plan != plan:
			return nil, fmt.Errorf("merge: shard %s rolled out another plan (%s, the run's is %s): move %s away and run synth rollout -o %s --shard %s",
				s.Name(), si.Plan, plan, sdir, dir, s.Flag())
		case si.Finished.IsZero() && si.Stopped != "":
			return nil, fmt.Errorf("merge: shard %s is unfinished: it stopped after %d of its rollouts: %s", s.Name(), si.Rollouts, si.Stopped)
		case si.Finished.IsZero():
			return nil, fmt.Errorf("merge: shard %s is unfinished: it started %s on %s and has not finished (still running, or killed: run synth rollout -o %s --shard %s to resume it)",
				s.Name(), si.Started.Format(time.RFC3339), si.Host, dir, s.Flag())
		}
		out = append(out, *si)
	}
	return out, nil
}

// ShardOptions override, for one shard, the plan's settings that do not
// shape the results; zero values keep the plan's.
type ShardOptions struct {
	Concurrency int     // rollouts in flight
	MaxCostUSD  float64 // the whole run's budget in dollars, of which the shard may spend 1/N
	MaxTokens   int64   // the whole run's budget in tokens, of which the shard may spend 1/N
}

func (so ShardOptions) apply(cfg *config.Config) {
	if so.Concurrency > 0 {
		cfg.Concurrency = so.Concurrency
	}
	if so.MaxCostUSD > 0 {
		cfg.LLM.MaxCostUSD = so.MaxCostUSD
	}
	if so.MaxTokens > 0 {
		cfg.LLM.MaxTokens = so.MaxTokens
	}
}

// ParseShard reads --shard: "I/N", or "auto" from the scheduler's
// environment (getenv):
//
//   - Slurm job arrays: with shards > 0, SLURM_ARRAY_TASK_ID is the shard
//     number itself (submit --array=1-N, and resubmit --array=I for one
//     shard); with shards 0, the shard is the task's place in its array
//     (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1) of
//     SLURM_ARRAY_TASK_COUNT.
//   - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX (from 0) + 1, of shards,
//     which must be given.
func ParseShard(spec string, shards int, getenv func(string) string) (runinfo.Shard, error) {
	if spec != "auto" {
		i, n, ok := strings.Cut(spec, "/")
		s := runinfo.Shard{Index: atoi(i), Count: atoi(n)}
		if !ok || s.Index < 1 || s.Count < 1 || s.Index > s.Count {
			return runinfo.Shard{}, fmt.Errorf("--shard %q: want I/N with 1 <= I <= N, e.g. 2/3, or auto", spec)
		}
		if shards > 0 && shards != s.Count {
			return runinfo.Shard{}, fmt.Errorf("--shard %s and --shards %d disagree on the number of shards", spec, shards)
		}
		return s, nil
	}
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		if shards > 0 {
			s := runinfo.Shard{Index: atoi(id), Count: shards}
			if s.Index < 1 || s.Index > shards {
				return runinfo.Shard{}, fmt.Errorf("--shard auto: SLURM_ARRAY_TASK_ID %s is not a shard of %d: with --shards, array indexes are shard numbers (sbatch --array=1-%d)", id, shards, shards)
			}
			return s, nil
		}
		lo, n := getenv("SLURM_ARRAY_TASK_MIN"), atoi(getenv("SLURM_ARRAY_TASK_COUNT"))
		if lo == "" {
			lo = "1"
		}
		s := runinfo.Shard{Index: atoi(id) - atoi(lo) + 1, Count: n}
		if n < 1 || s.Index < 1 || s.Index > n {
			return runinfo.Shard{}, fmt.Errorf("--shard auto: SLURM_ARRAY_TASK_ID %s, SLURM_ARRAY_TASK_MIN %s and SLURM_ARRAY_TASK_COUNT %q name no shard: pass --shards N", id, lo, getenv("SLURM_ARRAY_TASK_COUNT"))
		}
		return s, nil
	}
	if idx := getenv("JOB_COMPLETION_INDEX"); idx != "" {
		if shards < 1 {
			return runinfo.Shard{}, fmt.Errorf("--shard auto in a Kubernetes Indexed Job needs --shards N (the Job's completions)")
		}
		s := runinfo.Shard{Index: atoi(idx) + 1, Count: shards}
		if s.Index < 1 || s.Index > shards {
			return runinfo.Shard{}, fmt.Errorf("--shard auto: JOB_COMPLETION_INDEX %s is not below --shards %d", idx, shards)
		}
		return s, nil
	}
	return runinfo.Shard{}, fmt.Errorf("--shard auto found neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job): pass --shard I/N")
}

// atoi is s as a number, or -1.
func atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return -1
	}
	return n
}
