package runinfo

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"synth/rundir"
	"synth/schemas"
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
func (s Shard) Owns(taskID string) bool { return ShardOf(taskID, s.Count) == s.Index }

// ShardOf is the shard, 1..n, a task id belongs to.
func ShardOf(taskID string, n int) int {
	h := sha256.Sum256([]byte(taskID))
	return int(binary.BigEndian.Uint64(h[:8])%uint64(n)) + 1
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

// Tally counts what the trajectories of a shard's journal did and cost,
// reading them one at a time; a later record of an id counts instead of
// an earlier one.
func (si *ShardInfo) Tally(journal string) error {
	x, err := rundir.IndexByID[schemas.Trajectory](journal)
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

// ReadShardInfo reads a shard folder's shard.json; nil when there is none.
func ReadShardInfo(dir string) (*ShardInfo, error) {
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

// Save writes shard.json atomically.
func (si *ShardInfo) Save(dir string) error {
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
