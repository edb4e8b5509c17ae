package dataset

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"synth/schemas"
)

// Config is the dataset section of synth.yaml: how the dataset is emitted.
// A zero field takes the default named in its comment.
type Config struct {
	// ShardRows caps the rows of one Parquet shard (default 100000).
	ShardRows int `yaml:"shard_rows" json:"shard_rows"`
	// ShardBytes caps the raw message text of one shard in bytes, before
	// compression (default 256 MiB). A shard ends at whichever cap comes first.
	ShardBytes int64 `yaml:"shard_bytes" json:"shard_bytes"`
	// RowGroupRows caps the rows of one row group (default 1000). A row
	// group is buffered in memory until it is full, so this bounds the
	// writer's memory: about RowGroupRows times the size of a row.
	RowGroupRows int `yaml:"row_group_rows" json:"row_group_rows"`
	// RowGroupBytes ends a row group early when its rows hold this many
	// bytes of message text (default 32 MiB), so rows with long
	// observations cannot make a group, or the writer's memory, large.
	RowGroupBytes int64 `yaml:"row_group_bytes" json:"row_group_bytes"`
	// Workers is how many row groups are encoded and compressed at once
	// (default: the number of CPUs, at most 4). Memory grows by a row group
	// per worker.
	Workers int `yaml:"workers" json:"workers"`
	// ZstdLevel is the zstd level of the Parquet pages, 1 to 22 (default 3).
	// The encoder maps it onto its four speeds: 1 fastest, 2-5 default,
	// 6-9 better, 10 and up best.
	ZstdLevel int `yaml:"zstd_level" json:"zstd_level"`
	// Format is the message layout of the rows: "pybench" (observations as
	// user messages, as PyInstruct) or "openai-tools" (tool calls and tool
	// messages). Default pybench.
	Format string `yaml:"format" json:"format"`
	// JSONL also writes the rows as train-…jsonl, in dataset/jsonl beside
	// the Parquet shards' data/ (never in it, where readers glob them).
	JSONL bool `yaml:"jsonl" json:"jsonl"`
	// License is the dataset card's license (default "other": the license of
	// each input file is in files.jsonl).
	License string `yaml:"license" json:"license"`
	// VerdictClasses keeps only rows of these verdict classes (verified,
	// retried, judged); empty keeps every class. The filter stage
	// verdict_class drops the others, naming their class.
	VerdictClasses []string `yaml:"verdict_classes" json:"verdict_classes,omitempty"`
	// CPUHourUSD prices a sandbox CPU hour in the cost per kept row (default
	// 0.05, about an on-demand cloud vCPU-hour; it changes no row, so it is
	// not part of the config hash).
	CPUHourUSD float64 `yaml:"cpu_hour_usd" json:"cpu_hour_usd,omitempty"`
}

// Formats of the rows' messages.
const (
	FormatPyBench     = "pybench"
	FormatOpenAITools = "openai-tools"
)

// Defaults of Config.
const (
	DefaultShardRows     = 100_000
	DefaultShardBytes    = 256 << 20
	DefaultRowGroupRows  = 1000
	DefaultRowGroupBytes = 32 << 20
	DefaultZstdLevel     = 3
	DefaultCPUHourUSD    = 0.05
)

// CPUPrice is the price of a sandbox CPU hour in US dollars.
func (c Config) CPUPrice() float64 {
	if c.CPUHourUSD <= 0 {
		return DefaultCPUHourUSD
	}
	return c.CPUHourUSD
}

// withDefaults returns c with every zero field set to its default.
func (c Config) withDefaults() Config {
	if c.ShardRows <= 0 {
		c.ShardRows = DefaultShardRows
	}
	if c.ShardBytes <= 0 {
		c.ShardBytes = DefaultShardBytes
	}
	if c.RowGroupRows <= 0 {
		c.RowGroupRows = DefaultRowGroupRows
	}
	if c.RowGroupBytes <= 0 {
		c.RowGroupBytes = DefaultRowGroupBytes
	}
	if c.Workers <= 0 {
		c.Workers = min(runtime.GOMAXPROCS(0), 4)
	}
	if c.ZstdLevel <= 0 {
		c.ZstdLevel = DefaultZstdLevel
	}
	if c.Format == "" {
		c.Format = FormatPyBench
	}
	if c.License == "" {
		c.License = "other"
	}
	return c
}

// Validate reports a config error naming the key and the fix.
func (c Config) Validate() error {
	switch c.Format {
	case "", FormatPyBench, FormatOpenAITools:
	default:
		return fmt.Errorf("dataset.format %q: want %s or %s", c.Format, FormatPyBench, FormatOpenAITools)
	}
	for _, v := range c.VerdictClasses {
		if !slices.Contains(schemas.VerdictClasses, v) {
			return fmt.Errorf("dataset.verdict_classes: %q is not a verdict class (want %s)", v, strings.Join(schemas.VerdictClasses, ", "))
		}
	}
	if c.CPUHourUSD < 0 {
		return fmt.Errorf("dataset.cpu_hour_usd %g: want a price of a CPU hour in US dollars, 0 or more", c.CPUHourUSD)
	}
	if c.ZstdLevel > 22 {
		return fmt.Errorf("dataset.zstd_level %d: want 1 (fastest) to 22 (smallest)", c.ZstdLevel)
	}
	return nil
}
