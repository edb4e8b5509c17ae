package filters

import "fmt"

// Config is the filters section of synth.yaml. A zero field takes the
// default named in its comment; the With… methods resolve them.
type Config struct {
	// InfraRetries is how often a rollout that ended in an infrastructure
	// error (sandbox crash, teacher error) is run again (default 2; a
	// negative value turns retries off). Such a rollout is never counted as a
	// task failure: after the last retry it is dropped as infra_error.
	InfraRetries int `yaml:"infra_retries" json:"infra_retries"`

	Dedup DedupConfig `yaml:"dedup" json:"dedup"`
	Decon DeconConfig `yaml:"decontamination" json:"decontamination"`
	Gate  GateConfig  `yaml:"quality" json:"quality"`
	// Hygiene is the gate on habits a model would learn from a row:
	// repeated cells, error loops, repeated turns, templated openings.
	Hygiene HygieneConfig `yaml:"hygiene" json:"hygiene,omitempty"`
}

// DedupConfig configures query and trajectory dedup.
type DedupConfig struct {
	// Off turns dedup off.
	Off bool `yaml:"off" json:"off"`
	// NearThreshold is the word-shingle Jaccard similarity from which two
	// queries are near-duplicates (default 0.8).
	NearThreshold float64 `yaml:"near_threshold" json:"near_threshold"`
	// ShingleWords is the words per shingle (default 3).
	ShingleWords int `yaml:"shingle_words" json:"shingle_words"`
	// Permutations is the MinHash signature length (default 128). LSH bands
	// are chosen from it and NearThreshold.
	Permutations int `yaml:"permutations" json:"permutations"`
	// Scope is "inputs" (default: two tasks are duplicates only when their
	// input files are the same, so one template over many files is kept) or
	// "global" (by query text alone).
	Scope string `yaml:"scope" json:"scope"`
}

// DeconConfig configures decontamination against benchmark tasks.
type DeconConfig struct {
	// Off turns decontamination off.
	Off bool `yaml:"off" json:"off"`
	// NGram is the words per n-gram (default 13). A query shorter than that
	// is one n-gram of all its words.
	NGram int `yaml:"ngram" json:"ngram"`
	// Threshold is the share of a training query's n-grams found in one
	// benchmark query from which it is contaminated (default 0.5).
	Threshold float64 `yaml:"threshold" json:"threshold"`
}

// GateConfig configures the quality gates on a trajectory.
type GateConfig struct {
	// MinTurns and MaxTurns bound the assistant turns (default 1 and 0:
	// no upper bound).
	MinTurns int `yaml:"min_turns" json:"min_turns"`
	MaxTurns int `yaml:"max_turns" json:"max_turns"`
	// MinTokens and MaxTokens bound the trajectory's tokens, counted offline
	// (default 0 and 32768).
	MinTokens int64 `yaml:"min_tokens" json:"min_tokens"`
	MaxTokens int64 `yaml:"max_tokens" json:"max_tokens"`
	// MaxFailedCells is the largest share of executed cells that may end in
	// an error, timeout or crash (default 0.5).
	MaxFailedCells float64 `yaml:"max_failed_cells" json:"max_failed_cells"`
	// FinishedPrefix is what the last assistant message must start with
	// (default "Finished:").
	FinishedPrefix string `yaml:"finished_prefix" json:"finished_prefix"`
}

// Scopes of dedup.
const (
	ScopeInputs = "inputs"
	ScopeGlobal = "global"
)

// Defaults of Config.
const (
	DefaultInfraRetries   = 2
	DefaultNearThreshold  = 0.8
	DefaultShingleWords   = 3
	DefaultPermutations   = 128
	DefaultNGram          = 13
	DefaultDeconThreshold = 0.5
	DefaultMinTurns       = 1
	DefaultMaxTokens      = 32768
	DefaultMaxFailedCells = 0.5
	DefaultFinishedPrefix = "Finished:"
)

// Retries returns how often an infrastructure failure is retried.
func (c Config) Retries() int {
	switch {
	case c.InfraRetries < 0:
		return 0
	case c.InfraRetries == 0:
		return DefaultInfraRetries
	}
	return c.InfraRetries
}

// WithDefaults returns c with every zero field set to its default.
func (c DedupConfig) WithDefaults() DedupConfig {
	if c.NearThreshold <= 0 {
		c.NearThreshold = DefaultNearThreshold
	}
	if c.ShingleWords <= 0 {
		c.ShingleWords = DefaultShingleWords
	}
	if c.Permutations <= 0 {
		c.Permutations = DefaultPermutations
	}
	if c.Scope == "" {
		c.Scope = ScopeInputs
	}
	return c
}

// WithDefaults returns c with every zero field set to its default.
func (c DeconConfig) WithDefaults() DeconConfig {
	if c.NGram <= 0 {
		c.NGram = DefaultNGram
	}
	if c.Threshold <= 0 {
		c.Threshold = DefaultDeconThreshold
	}
	return c
}

// WithDefaults returns c with every zero field set to its default.
func (c GateConfig) WithDefaults() GateConfig {
	if c.MinTurns <= 0 {
		c.MinTurns = DefaultMinTurns
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	if c.MaxFailedCells <= 0 {
		c.MaxFailedCells = DefaultMaxFailedCells
	}
	if c.FinishedPrefix == "" {
		c.FinishedPrefix = DefaultFinishedPrefix
	}
	return c
}

// Validate reports a config error naming the key and the fix.
func (c Config) Validate() error {
	d := c.Dedup
	switch d.Scope {
	case "", ScopeInputs, ScopeGlobal:
	default:
		return fmt.Errorf("filters.dedup.scope %q: want %s or %s", d.Scope, ScopeInputs, ScopeGlobal)
	}
	if d.NearThreshold > 1 {
		return fmt.Errorf("filters.dedup.near_threshold %g: want a Jaccard similarity in (0, 1]", d.NearThreshold)
	}
	if c.Decon.Threshold > 1 {
		return fmt.Errorf("filters.decontamination.threshold %g: want a share in (0, 1]", c.Decon.Threshold)
	}
	if c.Gate.MaxFailedCells > 1 {
		return fmt.Errorf("filters.quality.max_failed_cells %g: want a share in (0, 1]", c.Gate.MaxFailedCells)
	}
	if c.Gate.MaxTurns > 0 && c.Gate.MaxTurns < c.Gate.MinTurns {
		return fmt.Errorf("filters.quality: max_turns %d is below min_turns %d", c.Gate.MaxTurns, c.Gate.MinTurns)
	}
	if c.Gate.MaxTokens > 0 && c.Gate.MaxTokens < c.Gate.MinTokens {
		return fmt.Errorf("filters.quality: max_tokens %d is below min_tokens %d", c.Gate.MaxTokens, c.Gate.MinTokens)
	}
	return c.Hygiene.validate()
}
