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
	// Validate runs every task's reference solution and an empty rollout
	// before keeping it.
	Validate bool `yaml:"validate" json:"validate"`
}
