package agent

// Config is the teacher section of synth.yaml: who writes the assistant
// turns and how a rollout runs.
type Config struct {
	// Kind: reference (plays a task's reference solution; offline), openai,
	// replay, empty.
	Kind string `yaml:"kind"`
	// Format: pybench (Analyse / This Step Todo / Action / code / Finished:)
	// or openai-tools (execute_python tool calls).
	Format string `yaml:"format"`
	// Samples is how many rollouts each task gets.
	Samples int `yaml:"samples"`
	// MaxTurns caps the assistant turns of a rollout.
	MaxTurns int `yaml:"max_turns"`
	// MaxObservation caps the characters of one observation sent back to
	// the teacher; the rest is cut with a marker.
	MaxObservation int `yaml:"max_observation"`
	// SystemPrompts, if set, replaces the default system prompt; with more
	// than one, each rollout takes one by its id.
	SystemPrompts []string `yaml:"system_prompts"`
}
