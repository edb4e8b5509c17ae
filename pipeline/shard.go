package pipeline

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"synth/rundir"
)

// Shard is one of Count parts of a plan's rollouts, numbered from 1. Tasks
// are dealt to shards by a hash of their id, so a task's shard depends only
// on its id and Count: never on the order, the machine or the other tasks.
type Shard struct {
	Index, Count int
}

// Name is the shard's folder under RUN/shards: "2-of-3".
func (s Shard) Name() string { return fmt.Sprintf("%d-of-%d", s.Index, s.Count) }

// Flag is the shard as --shard spells it: "2/3".
func (s Shard) Flag() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Owns reports whether the task with this id is the shard's.
func (s Shard) Owns(taskID string) bool { return shardOf(taskID, s.Count) == s.Index }

// shardOf is the shard, 1..n, a task id belongs to.
func shardOf(taskID string, n int) int {
	h := sha256.Sum256([]byte(taskID))
	return int(binary.BigEndian.Uint64(h[:8])%uint64(n)) + 1
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
func ParseShard(spec string, shards int, getenv func(string) string) (Shard, error) {
	if spec != "auto" {
		i, n, ok := strings.Cut(spec, "/")
		s := Shard{Index: atoi(i), Count: atoi(n)}
		if !ok || s.Index < 1 || s.Count < 1 || s.Index > s.Count {
			return Shard{}, fmt.Errorf("--shard %q: want I/N with 1 <= I <= N, e.g. 2/3, or auto", spec)
		}
		if shards > 0 && shards != s.Count {
			return Shard{}, fmt.Errorf("--shard %s and --shards %d disagree on the number of shards", spec, shards)
		}
		return s, nil
	}
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		if shards > 0 {
			s := Shard{Index: atoi(id), Count: shards}
			if s.Index < 1 || s.Index > shards {
				return Shard{}, fmt.Errorf("--shard auto: SLURM_ARRAY_TASK_ID %s is not a shard of %d: with --shards, array indexes are shard numbers (sbatch --array=1-%d)", id, shards, shards)
			}
			return s, nil
		}
		lo, n := getenv("SLURM_ARRAY_TASK_MIN"), atoi(getenv("SLURM_ARRAY_TASK_COUNT"))
		if lo == "" {
			lo = "1"
		}
		s := Shard{Index: atoi(id) - atoi(lo) + 1, Count: n}
		if n < 1 || s.Index < 1 || s.Index > n {
			return Shard{}, fmt.Errorf("--shard auto: SLURM_ARRAY_TASK_ID %s, SLURM_ARRAY_TASK_MIN %s and SLURM_ARRAY_TASK_COUNT %q name no shard: pass --shards N", id, lo, getenv("SLURM_ARRAY_TASK_COUNT"))
		}
		return s, nil
	}
	if idx := getenv("JOB_COMPLETION_INDEX"); idx != "" {
		if shards < 1 {
			return Shard{}, fmt.Errorf("--shard auto in a Kubernetes Indexed Job needs --shards N (the Job's completions)")
		}
		s := Shard{Index: atoi(idx) + 1, Count: shards}
		if s.Index < 1 || s.Index > shards {
			return Shard{}, fmt.Errorf("--shard auto: JOB_COMPLETION_INDEX %s is not below --shards %d", idx, shards)
		}
		return s, nil
	}
	return Shard{}, fmt.Errorf("--shard auto found neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job): pass --shard I/N")
}

// atoi is s as a number, or -1.
func atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return -1
	}
	return n
}

// ShardInfo is shard.json: what a shard did. Finished is set when every
// rollout of the shard is journaled; Stopped says why a shard ended before
// (a budget, an endpoint that refused, an interrupt).
type ShardInfo struct {
	Shard      string    `json:"shard"` // 2-of-3
	Plan       string    `json:"plan"`  // the plan's hash
	ConfigHash string    `json:"config_hash"`
	Host       string    `json:"host,omitempty"`
	Tasks      int       `json:"tasks"`
	Rollouts   int       `json:"rollouts"` // journaled
	Passed     int       `json:"passed"`
	CostUSD    float64   `json:"cost_usd"`
	Tokens     int64     `json:"tokens"`
	Started    time.Time `json:"started"`
	Finished   time.Time `json:"finished,omitzero"`
	Stopped    string    `json:"stopped,omitempty"`
}

// tally counts what the trajectories of a shard's journal did and cost,
// reading them one at a time; a later record of an id counts instead of
// an earlier one.
func (si *ShardInfo) tally(journal string) error {
	x, err := indexJournal(journal)
	if err != nil {
		return err
	}
	defer x.Close()
	si.Rollouts, si.Passed, si.CostUSD, si.Tokens = x.Len(), 0, 0, 0
	for _, ref := range x.Refs() {
		t, err := ref.Load()
		if err != nil {
			return err
		}
		if t.Verdict != nil && t.Verdict.Passed {
			si.Passed++
		}
		si.CostUSD += t.Usage.CostUSD
		si.Tokens += t.Usage.PromptTokens + t.Usage.CompletionTokens
	}
	return nil
}

func readShardInfo(dir string) (*ShardInfo, error) {
	b, err := os.ReadFile(filepath.Join(dir, rundir.Shard))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var si ShardInfo
	if err := json.Unmarshal(b, &si); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, rundir.Shard), err)
	}
	return &si, nil
}

// save writes shard.json atomically.
func (si *ShardInfo) save(dir string) error {
	b, err := json.MarshalIndent(si, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, rundir.Shard+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dir, rundir.Shard))
}
