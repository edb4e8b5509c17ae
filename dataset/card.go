package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"synth/rundir"
	"synth/schemas"
)

// CardInfo is what the dataset card and stats.json say about a dataset.
type CardInfo struct {
	Title       string // pretty_name (default "synth code-interpreter trajectories")
	Description string // a paragraph under the title (optional)
	Config      Config // the dataset config the shards were written with
	// DataDir is where the shards are, relative to the card (default "data").
	DataDir   string
	Rows      int64
	Bytes     int64    // the rows' raw message text (Writer.Bytes)
	Languages []string // of the queries (default en)
	Stats     Stats
	// Funnel is the filter funnel (a *filters.Funnel); nil leaves the
	// section out.
	Funnel  FunnelReport
	Teacher TeacherCard
	// Tasks is how the tasks were written and proven; nil leaves the
	// section out.
	Tasks        *TasksCard
	Python       PythonInfo
	ConfigHash   string
	SynthVersion string
	Sources      []SourceCount // where the input files came from (optional)
	Created      time.Time     // default now
	// Hygiene is what the hygiene gate measured; nil leaves the section out.
	Hygiene *schemas.HygieneReport
	// Cost is what the rows cost over every attempt, Yield how many items
	// reached each step; nil leaves them out.
	Cost  *schemas.CostReport
	Yield []schemas.YieldStage
	// GraderAccuracy is the checks' accuracy figures (how often they pass
	// right work and fail wrong work), as JSON; the build does not measure
	// them yet, and the card says so while it is nil.
	GraderAccuracy json.RawMessage
}

// FunnelReport is the filter funnel as the card shows it.
type FunnelReport interface {
	WriteMarkdown(w io.Writer) error
	MarshalJSON() ([]byte, error)
}

// TeacherCard is the teacher and its settings.
type TeacherCard struct {
	Kind     string         `json:"kind"`
	Model    string         `json:"model,omitempty"`
	Endpoint string         `json:"endpoint,omitempty"`
	Format   string         `json:"format,omitempty"`
	Settings map[string]any `json:"settings,omitempty"` // temperature, max_turns, …
}

// PythonInfo is the sandbox's interpreter.
type PythonInfo struct {
	Version  string            `json:"version"`
	Packages map[string]string `json:"packages,omitempty"` // name -> version
	// Lock names the locked environment (name-hash of its lock file) when
	// the interpreter matched it; Fingerprint identifies any environment.
	Lock        string `json:"lock,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
}

// SourceCount is how many input files came from one source under one license.
type SourceCount struct {
	Kind    string `json:"kind"`
	License string `json:"license,omitempty"`
	Files   int64  `json:"files"`
}

// WriteCard writes the Hugging Face dataset card (README.md, with YAML front
// matter: license, task categories, size category, configs/data_files and
// features) and stats.json into dir, each atomically.
func WriteCard(dir string, info CardInfo) error {
	info = info.withDefaults()
	var b bytes.Buffer
	if err := writeFrontMatter(&b, dir, info); err != nil {
		return fmt.Errorf("dataset card: %w", err)
	}
	if err := writeCardBody(&b, info); err != nil {
		return fmt.Errorf("dataset card: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(dir, rundir.DatasetCard), b.Bytes()); err != nil {
		return fmt.Errorf("dataset card: %w", err)
	}
	sj, err := statsJSON(info)
	if err != nil {
		return fmt.Errorf("dataset stats: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(dir, rundir.DatasetStats), sj); err != nil {
		return fmt.Errorf("dataset stats: %w", err)
	}
	return nil
}

func (info CardInfo) withDefaults() CardInfo {
	info.Config = info.Config.withDefaults()
	if info.Title == "" {
		info.Title = "synth code-interpreter trajectories"
	}
	if info.DataDir == "" {
		info.DataDir = rundir.DatasetShards
	}
	if len(info.Languages) == 0 {
		info.Languages = []string{"en"}
	}
	if info.Created.IsZero() {
		info.Created = time.Now().UTC()
	}
	return info
}

// cardMeta is the YAML front matter, in the order the Hub shows it.
type cardMeta struct {
	License        string       `yaml:"license"`
	Language       []string     `yaml:"language"`
	PrettyName     string       `yaml:"pretty_name"`
	TaskCategories []string     `yaml:"task_categories"`
	Tags           []string     `yaml:"tags"`
	SizeCategories []string     `yaml:"size_categories"`
	Configs        []cardConfig `yaml:"configs"`
	DatasetInfo    cardInfoMeta `yaml:"dataset_info"`
}

type cardConfig struct {
	ConfigName string          `yaml:"config_name"`
	Default    bool            `yaml:"default"`
	DataFiles  []cardDataFiles `yaml:"data_files"`
}

type cardDataFiles struct {
	Split string `yaml:"split"`
	Path  string `yaml:"path"`
}

type cardInfoMeta struct {
	ConfigName   string      `yaml:"config_name"`
	Features     []Feature   `yaml:"features"`
	Splits       []cardSplit `yaml:"splits"`
	DownloadSize int64       `yaml:"download_size"`
	DatasetSize  int64       `yaml:"dataset_size"`
}

type cardSplit struct {
	Name        string `yaml:"name"`
	NumBytes    int64  `yaml:"num_bytes"`
	NumExamples int64  `yaml:"num_examples"`
}

func writeFrontMatter(w *bytes.Buffer, dir string, info CardInfo) error {
	download, err := shardBytes(filepath.Join(dir, info.DataDir))
	if err != nil {
		return err
	}
	raw := info.Bytes
	meta := cardMeta{
		License:        info.Config.License,
		Language:       info.Languages,
		PrettyName:     info.Title,
		TaskCategories: []string{"text-generation"},
		Tags:           []string{"code-interpreter", "agent", "tool-use", "python", "synthetic"},
		SizeCategories: []string{SizeCategory(info.Rows)},
		Configs: []cardConfig{{
			ConfigName: "default", Default: true,
			DataFiles: []cardDataFiles{{Split: "train", Path: filepath.ToSlash(filepath.Join(info.DataDir, "train-*.parquet"))}},
		}},
		DatasetInfo: cardInfoMeta{
			ConfigName:   "default",
			Features:     Features(info.Config.Format),
			Splits:       []cardSplit{{Name: "train", NumBytes: raw, NumExamples: info.Rows}},
			DownloadSize: download,
			DatasetSize:  raw,
		},
	}
	w.WriteString("---\n")
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(meta); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	w.WriteString("---\n\n")
	return nil
}

// SizeCategory returns the Hub's size category for n rows.
func SizeCategory(n int64) string {
	bounds := []struct {
		max  int64
		name string
	}{{1_000, "n<1K"}, {10_000, "1K<n<10K"}, {100_000, "10K<n<100K"}, {1_000_000, "100K<n<1M"}, {10_000_000, "1M<n<10M"}, {100_000_000, "10M<n<100M"}}
	for _, b := range bounds {
		if n < b.max {
			return b.name
		}
	}
	return "100M<n<1B"
}

// shardBytes sums the sizes of the Parquet shards in dir.
func shardBytes(dir string) (int64, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "train-*.parquet"))
	if err != nil {
		return 0, err
	}
	var n int64
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return 0, err
		}
		n += fi.Size()
	}
	return n, nil
}

func statsJSON(info CardInfo) ([]byte, error) {
	v := struct {
		Rows           int64                  `json:"rows"`
		Format         string                 `json:"format"`
		ConfigHash     string                 `json:"config_hash,omitempty"`
		SynthVersion   string                 `json:"synth_version,omitempty"`
		Created        time.Time              `json:"created"`
		Teacher        TeacherCard            `json:"teacher"`
		Python         PythonInfo             `json:"python"`
		Sources        []SourceCount          `json:"sources,omitempty"`
		Stats          Stats                  `json:"stats"`
		Funnel         json.RawMessage        `json:"funnel,omitempty"`
		Tasks          *TasksCard             `json:"tasks,omitempty"`
		Hygiene        *schemas.HygieneReport `json:"hygiene,omitempty"`
		Cost           *schemas.CostReport    `json:"cost,omitempty"`
		Yield          []schemas.YieldStage   `json:"yield,omitempty"`
		GraderAccuracy json.RawMessage        `json:"grader_accuracy,omitempty"`
	}{
		Rows: info.Rows, Format: info.Config.Format, ConfigHash: info.ConfigHash, SynthVersion: info.SynthVersion,
		Created: info.Created, Teacher: info.Teacher, Python: info.Python, Sources: info.Sources, Stats: info.Stats,
		Tasks: info.Tasks, Hygiene: info.Hygiene, Cost: info.Cost, Yield: info.Yield, GraderAccuracy: info.GraderAccuracy,
	}
	if info.Funnel != nil {
		f, err := info.Funnel.MarshalJSON()
		if err != nil {
			return nil, err
		}
		v.Funnel = f
	}
	b, err := json.MarshalIndent(v, "", "  ")
	return append(b, '\n'), err
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// mdCell escapes a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
