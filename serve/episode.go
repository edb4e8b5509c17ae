package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"synth/agent"
	"synth/filters"
	"synth/sandbox"
	"synth/schemas"
	"synth/tokens"
)

// episode is one task played in one sandbox. Its mutex serialises the
// requests that touch it; the reaper only takes an episode it can lock.
type episode struct {
	id      string
	task    *schemas.Task
	inputs  []sandbox.Input
	format  agent.Format
	created time.Time
	last    atomic.Int64 // unix nanoseconds of the last request

	mu      sync.Mutex
	sb      sandbox.Sandbox // nil once torn down
	ep      *agent.Episode
	steps   int
	reward  *float64
	release func() // gives the episode slot back; called once, by end
}

func (e *episode) touch() { e.last.Store(time.Now().UnixNano()) }

func (e *episode) idle(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, e.last.Load()))
}

// end tears the sandbox down, if it is still up, and gives the slot back.
// Called with e.mu held.
func (e *episode) end() {
	if e.sb != nil {
		e.sb.Close()
		e.sb = nil
	}
	if e.release != nil {
		e.release()
		e.release = nil
	}
}

// Observation is what reset and step return as OpenEnv's observation.
type Observation struct {
	EpisodeID string `json:"episode_id"`
	TaskID    string `json:"task_id"`
	Index     string `json:"index,omitempty"`
	Format    string `json:"format"`
	// Messages are the messages this call added to the conversation: at
	// reset the system prompt, the upload notice and the query; at a step
	// the cell's observation (or the nudge), none when the episode ended.
	Messages []schemas.Message `json:"messages"`
	// Tools are the tool definitions of the openai-tools format (at reset).
	Tools    json.RawMessage `json:"tools,omitempty"`
	Turn     int             `json:"turn"`
	MaxTurns int             `json:"max_turns"`
	// Cell is the status of the cell the step ran: ok, error, timeout,
	// crash; empty when it ran none.
	Cell string `json:"cell_status,omitempty"`
	// CellMS is the cell's own run time in milliseconds, as the sandbox
	// timed it.
	CellMS float64 `json:"cell_ms,omitempty"`
	// StopReason says why the episode ended (finished, max_turns, no_code,
	// context_length, truncated, sandbox_error).
	StopReason string `json:"stop_reason,omitempty"`
	// Verdict is the verifier's verdict at the end: passed, the checks with
	// their messages, the failure reason.
	Verdict *schemas.Verdict `json:"verdict,omitempty"`
	// Error is what went wrong in the episode (a sandbox failure, an
	// artifact that could not be collected).
	Error string `json:"error,omitempty"`
}

// Result is an OpenEnv step result: the observation, the reward (null until
// the end, then 1 or 0) and done.
type Result struct {
	Observation Observation `json:"observation"`
	Reward      *float64    `json:"reward"`
	Done        bool        `json:"done"`
}

// State is OpenEnv's state of an episode, with the conversation so far.
type State struct {
	EpisodeID  string            `json:"episode_id"`
	StepCount  int               `json:"step_count"`
	TaskID     string            `json:"task_id"`
	Format     string            `json:"format"`
	Done       bool              `json:"done"`
	StopReason string            `json:"stop_reason,omitempty"`
	Reward     *float64          `json:"reward"`
	Messages   []schemas.Message `json:"messages"`
}

func (e *episode) observation(msgs []schemas.Message) Observation {
	if msgs == nil {
		msgs = []schemas.Message{}
	}
	return Observation{EpisodeID: e.id, TaskID: e.task.ID, Index: e.task.Index, Format: e.format.Name(),
		Messages: msgs, Turn: e.ep.Turns(), MaxTurns: e.ep.MaxTurns()}
}

// state is e's State. Called with e.mu held.
func (e *episode) state() State {
	t := e.ep.Trajectory()
	return State{EpisodeID: e.id, StepCount: e.steps, TaskID: e.task.ID, Format: e.format.Name(),
		Done: e.ep.Done(), StopReason: t.StopReason, Reward: e.reward, Messages: t.Messages}
}

// step plays one assistant message. Called with e.mu held.
func (s *Server) step(ctx context.Context, e *episode, msg schemas.Message) (Result, error) {
	if e.ep.Done() {
		return Result{}, errorf(409, codeSession, "episode %q has ended (%s): reset for a new one", e.id, e.ep.Trajectory().StopReason)
	}
	res, err := e.ep.Step(ctx, agent.Reply{Message: msg})
	if err != nil {
		return Result{}, errorf(499, codeExecution, "episode %q: %v", e.id, err)
	}
	e.steps++
	s.metrics.count(func(c *Counts) { c.Steps++ })
	obs := e.observation(res.Messages)
	if res.Cell != nil {
		obs.Cell, obs.CellMS = res.Cell.Status, float64(res.Cell.Elapsed.Microseconds())/1000
		s.metrics.observe(latCell, res.Cell.Elapsed)
	}
	t := e.ep.Trajectory()
	if !e.ep.Done() && s.cfg.MaxContext > 0 {
		if n := tokens.Messages(t.Messages); n > int64(s.cfg.MaxContext) {
			e.ep.Stop(schemas.StopContextLength, fmt.Errorf("the conversation is %d tokens, past the server's --max-context %d", n, s.cfg.MaxContext))
		}
	}
	if !e.ep.Done() {
		return Result{Observation: obs}, nil
	}
	s.finish(e)
	obs.StopReason, obs.Verdict, obs.Error = t.StopReason, t.Verdict, t.Error
	return Result{Observation: obs, Reward: e.reward, Done: true}, nil
}

// finish ends e: the sandbox is halted, what it left under output/ is
// collected, the sandbox is torn down, and the isolated verifier gives the
// verdict and the reward; the episode is recorded if the server records.
// It runs under the server's context, not the request's: a client that
// hangs up does not stop a verdict half-way. Called with e.mu held.
func (s *Server) finish(e *episode) {
	start := time.Now()
	t := e.ep.Trajectory()
	store, cleanup, err := s.store()
	defer cleanup()
	if err != nil {
		filters.Unverified(t, err)
	} else {
		filters.Collect(e.sb, t, store, s.cfg.Collect)
	}
	e.sb.Close()
	e.sb = nil
	if t.Verdict == nil {
		v, err := filters.Verify(s.ctx, s.backend, e.task, t, e.inputs, store)
		if err != nil {
			filters.Unverified(t, err)
		} else {
			t.Verdict = &v
		}
	}
	e.end()
	reward := 0.0
	if t.Verdict.Passed {
		reward = 1
	}
	e.reward = &reward
	s.metrics.observe(latVerify, time.Since(start))
	s.metrics.finished(reward, t.Verdict.Failure)
	if s.cfg.Recorder != nil {
		s.recordMu.Lock()
		err := s.cfg.Recorder.Record(e.task, t)
		s.recordMu.Unlock()
		if err != nil {
			t.Error = fmt.Sprintf("%s; record: %v", t.Error, err)
			s.logf("serve: episode %q: record: %v", e.id, err)
		}
	}
}

// store is the artifact store an episode collects into: the recorder's, or
// a fresh folder of its own under TempDir that cleanup removes once the
// verdict is in. Its name is the server's own: no path is ever made of
// anything a client sent.
func (s *Server) store() (dir string, cleanup func(), err error) {
	if s.cfg.Recorder != nil {
		return s.cfg.Recorder.Store(), func() {}, nil
	}
	dir, err = os.MkdirTemp(s.cfg.TempDir, "synth-serve-")
	if err != nil {
		return "", func() {}, fmt.Errorf("artifact store: %w", err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}
