package generators

// Config is the tasks section of synth.yaml: how tasks are written.
type Config struct {
	// Writer is template (offline, with reference solutions) or llm.
	Writer string `yaml:"writer" json:"writer"`
	// Templates, if set, limits the template writer to these template names
	// or prefixes (csv.dedup, text.).
	Templates []string `yaml:"templates" json:"templates"`
	// PerFile caps the tasks written per input file (0: every template that fits).
	PerFile int `yaml:"per_file" json:"per_file"`
	// Langs are the query languages to write: en, zh.
	Langs []string `yaml:"langs" json:"langs"`
	// Fileless writes the tasks that read no file (math, programs, web
	// pages) whatever the sources; without it they are written only when
	// the built-in corpus is among them.
	Fileless bool `yaml:"fileless" json:"fileless,omitempty"`
	// Validate runs every task's reference solution and an empty rollout
	// before keeping it.
	Validate bool `yaml:"validate" json:"validate"`
	// Composed sets the composed tasks: chains of dependent steps (clean,
	// filter, join, aggregate, share) asked as one query.
	Composed ComposedConfig `yaml:"composed" json:"composed,omitempty"`
}

// ComposedConfig is the tasks.composed section: how many composed tasks
// the template writer writes, and how deep.
type ComposedConfig struct {
	// Share is the share of a table file's tasks (per_file, or 3 when it
	// is 0) that are composed, rounded, at least one when above 0; 0
	// writes none. Each pair of tables a key links gets one more.
	Share float64 `yaml:"share" json:"share"`
	// Depth is the fewest dependent steps of a composed task (0: 3).
	Depth int `yaml:"depth" json:"depth"`
}
