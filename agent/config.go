package agent

import "hash/fnv"

// Config is the teacher section of synth.yaml: who writes the assistant
// turns and how a rollout runs.
type Config struct {
	// Kind: reference (plays a task's reference solution; offline), openai,
	// replay, empty, sloppy (the reference with a bad habit per rollout, for
	// trying the hygiene gate; offline).
	Kind string `yaml:"kind" json:"kind"`
	// Format: pybench (Analyse / This Step Todo / Action / code / Finished:)
	// or openai-tools (execute_python tool calls).
	Format string `yaml:"format" json:"format"`
	// Samples is how many rollouts each task gets.
	Samples int `yaml:"samples" json:"samples"`
	// MaxTurns caps the assistant turns of a rollout.
	MaxTurns int `yaml:"max_turns" json:"max_turns"`
	// MaxObservation caps the characters of one observation sent back to
	// the teacher; the rest is cut with a marker.
	MaxObservation int `yaml:"max_observation" json:"max_observation"`
	// SystemPrompts, if set, replaces the default system prompt; with more
	// than one, each rollout takes one by its id.
	SystemPrompts []string `yaml:"system_prompts" json:"system_prompts"`
	// Nudge is sent once when a turn has neither code nor a final answer;
	// empty: DefaultNudge; "-": never nudge (the rollout ends with no_code).
	Nudge string `yaml:"nudge" json:"nudge"`

	// Model is the llm model the openai teacher asks (it must be served by
	// an llm endpoint); empty: the first endpoint's model.
	Model string `yaml:"model" json:"model"`
	// Temperature of the openai teacher; unset: DefaultTemperature. 0 is
	// sent as 0.
	Temperature *float64 `yaml:"temperature" json:"temperature"`
	// TopP of the openai teacher; unset: the server's default.
	TopP *float64 `yaml:"top_p" json:"top_p"`
	// MaxReplyTokens caps one reply of the openai teacher; 0: the server's
	// default.
	MaxReplyTokens int `yaml:"max_reply_tokens" json:"max_reply_tokens"`
	// Replay is the trajectory file the replay teacher plays: PyBench's
	// trajectory.jsonl or synth's trajectories.jsonl.
	Replay string `yaml:"replay" json:"replay"`
}

// DefaultTemperature is the openai teacher's temperature when none is set:
// high enough that the samples of a task differ.
const DefaultTemperature = 0.7

// SystemPromptFor returns the system prompt of a rollout: one of
// SystemPrompts chosen by the rollout id (stable across reruns), or "" for
// the format's default.
func (c Config) SystemPromptFor(rolloutID string) string {
	switch len(c.SystemPrompts) {
	case 0:
		return ""
	case 1:
		return c.SystemPrompts[0]
	}
	h := fnv.New32a()
	h.Write([]byte(rolloutID))
	return c.SystemPrompts[h.Sum32()%uint32(len(c.SystemPrompts))]
}
