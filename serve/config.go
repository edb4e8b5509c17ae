package serve

import (
	"errors"
	"fmt"
	"time"

	"synth/agent"
	"synth/sandbox"
	"synth/schemas"
)

// Source is what an environment serves: tasks, and where each finds its
// input files.
type Source struct {
	Name   string // the benchmark folder or run directory, for /metadata
	Tasks  []schemas.Task
	Inputs func(*schemas.Task) []sandbox.Input
}

// Recorder journals finished episodes. Record is called once per finished
// episode, from one goroutine at a time, after its verdict; Store is the
// content-addressed folder episodes' artifacts are collected into.
type Recorder interface {
	Record(task *schemas.Task, t *schemas.Trajectory) error
	Store() string
}

// Config shapes a server. Zero values take the defaults below.
type Config struct {
	// Format is the episodes' default prompt format (a reset may ask for
	// another); nil: pybench.
	Format agent.Format
	// System replaces the format's default system prompt when set.
	System string
	// MaxTurns caps an episode's assistant turns (default 10).
	MaxTurns int
	// MaxObservation caps the characters of one observation (default 8000).
	MaxObservation int
	// Nudge is sent once for a turn with neither code nor a final answer;
	// empty: agent.DefaultNudge; "-": never (the episode ends with no_code).
	Nudge string
	// MaxContext ends an episode with context_length once its conversation
	// is longer than this many tokens (tiktoken's o200k); 0: no cap.
	MaxContext int
	// MaxEpisodes bounds the episodes open at once (each holds a sandbox);
	// a reset past it is answered busy at once (default 16).
	MaxEpisodes int
	// IdleTimeout reaps an episode no request touched for this long: its
	// sandbox is torn down and it is not recorded (default 5m).
	IdleTimeout time.Duration
	// MaxMessageBytes caps one request body or WebSocket message
	// (default 1 MiB).
	MaxMessageBytes int64
	// ReadTimeout is how long a request's header and body may take to
	// arrive over HTTP; a WebSocket session has IdleTimeout per message
	// instead (default 30s).
	ReadTimeout time.Duration
	// MaxSessions bounds the WebSocket sessions open at once; one past it is
	// refused before the upgrade with 503 (default 4 × MaxEpisodes, at least
	// 64).
	MaxSessions int
	// Token, when set, is the bearer token every request but /health must
	// carry (Authorization: Bearer TOKEN).
	Token string
	// Collect bounds what is collected from an episode's output/.
	Collect sandbox.CollectLimits
	// Recorder, when set, journals every finished episode.
	Recorder Recorder
	// TempDir holds the per-episode artifact stores when nothing records
	// them; empty: os.TempDir().
	TempDir string
	// Version is synth's version, for /metadata.
	Version string
	// Preload, when set, makes the template the episodes of a task start
	// from (normally sandbox.NewTemplate with the server's sandbox
	// settings): called once per task whose table inputs total at least
	// PreloadMin bytes, at its first reset, for at most PreloadTasks tasks
	// (default DefaultPreloadTasks). The server closes what it returns.
	Preload      func(inputs []sandbox.Input, reads []sandbox.Read) (sandbox.Backend, error)
	PreloadMin   int64
	PreloadTasks int
}

// Defaults of Config.
const (
	DefaultMaxEpisodes     = 16
	DefaultIdleTimeout     = 5 * time.Minute
	DefaultMaxMessageBytes = 1 << 20
	DefaultReadTimeout     = 30 * time.Second
)

func (c Config) withDefaults() Config {
	if c.Format == nil {
		c.Format = agent.NewPyBench()
	}
	if c.MaxTurns <= 0 {
		c.MaxTurns = 10
	}
	if c.MaxObservation <= 0 {
		c.MaxObservation = 8000
	}
	if c.MaxEpisodes <= 0 {
		c.MaxEpisodes = DefaultMaxEpisodes
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.MaxMessageBytes <= 0 {
		c.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = DefaultReadTimeout
	}
	if c.PreloadTasks <= 0 {
		c.PreloadTasks = DefaultPreloadTasks
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = max(4*c.MaxEpisodes, 64)
	}
	return c
}

func (s Source) validate() error {
	if len(s.Tasks) == 0 {
		return fmt.Errorf("serve %s: no tasks to serve", s.Name)
	}
	if s.Inputs == nil {
		return errors.New("serve: the source does not say where the tasks' inputs are")
	}
	return nil
}

// FormatNamed returns the prompt format called name.
func FormatNamed(name string) (agent.Format, error) {
	switch name {
	case agent.NewPyBench().Name():
		return agent.NewPyBench(), nil
	case agent.NewToolsFormat().Name():
		return agent.NewToolsFormat(), nil
	}
	return nil, fmt.Errorf("format %q is not known (want pybench or openai-tools)", name)
}
