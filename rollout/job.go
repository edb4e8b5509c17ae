package rollout

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"synth/agent"
	"synth/schemas"
)

// Job is one rollout to play: a task, a sample number, a teacher and the
// message format they speak.
type Job struct {
	ID      string // the trajectory's id (see ID)
	Task    *schemas.Task
	Sample  int
	Teacher agent.Teacher
	Format  agent.Format
}

// ID is a hash of everything that shapes a rollout, so a rerun of the same
// config finds it done.
func ID(taskID string, sample int, t agent.Teacher, f agent.Format, cfg agent.Config) string {
	info := t.Info()
	h := sha256.New()
	// Not the endpoint: replicas of one model give the same rollouts.
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00%s\x00%s\x00%d\x00%d\x00%s\x00%s\x00%s\x00%d\x00%s",
		taskID, sample, info.Kind, info.Model, f.Name(), cfg.MaxTurns, cfg.MaxObservation, strings.Join(cfg.SystemPrompts, "\x00"),
		floatKey(cfg.Temperature), floatKey(cfg.TopP), cfg.MaxReplyTokens, cfg.Nudge)
	return hex.EncodeToString(h.Sum(nil))[:24]
}

func floatKey(f *float64) string {
	if f == nil {
		return "-"
	}
	return fmt.Sprint(*f)
}

// Seed is the sandbox seed of the rollout with this id.
func Seed(id string) int64 {
	h := sha256.Sum256([]byte(id))
	return int64(binary.BigEndian.Uint64(h[:8]) >> 1)
}
