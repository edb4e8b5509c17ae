package dataset

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"synth/rundir"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// fakeFunnel stands in for a *filters.Funnel.
type fakeFunnel struct{}

func (fakeFunnel) WriteMarkdown(w io.Writer) error {
	_, err := io.WriteString(w, "| stage | in | out |\n|---|---:|---:|\n| verify | 10 | 7 |\n")
	return err
}
func (fakeFunnel) MarshalJSON() ([]byte, error) {
	return []byte(`{"stages":[{"name":"verify","in":10,"out":7}]}`), nil
}

func testCard(t *testing.T, format string) (dir string, info CardInfo) {
	t.Helper()
	dir = t.TempDir()
	w, err := NewWriter(filepath.Join(dir, "data"), Config{Format: format})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		if err := w.Write(testRow(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	info = CardInfo{
		Config: Config{Format: format, License: "cc-by-4.0"}, Rows: w.Rows(), Bytes: w.Bytes(), Stats: w.Stats(),
		Funnel:     fakeFunnel{},
		Teacher:    TeacherCard{Kind: "openai", Model: "gpt-4o", Format: format, Settings: map[string]any{"temperature": 0, "max_turns": 10}},
		Python:     PythonInfo{Version: "3.11.2", Packages: map[string]string{"pandas": "1.5.3", "numpy": "1.24.2"}},
		ConfigHash: "c0ffee", SynthVersion: "v0.1.0",
		Sources: []SourceCount{{Kind: "sample", License: "CC0-1.0", Files: 5}},
		Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
	if err := WriteCard(dir, info); err != nil {
		t.Fatal(err)
	}
	return dir, info
}

func TestWriteCard(t *testing.T) {
	dir, _ := testCard(t, FormatPyBench)
	card, err := os.ReadFile(filepath.Join(dir, rundir.DatasetCard))
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.SplitN(string(card), "---\n", 3)
	if len(parts) != 3 || parts[0] != "" {
		t.Fatalf("no YAML front matter:\n%s", card)
	}
	var meta struct {
		License        string   `yaml:"license"`
		TaskCategories []string `yaml:"task_categories"`
		SizeCategories []string `yaml:"size_categories"`
		Configs        []struct {
			DataFiles []struct{ Split, Path string } `yaml:"data_files"`
		} `yaml:"configs"`
		DatasetInfo struct {
			Features []Feature `yaml:"features"`
			Splits   []struct {
				Name        string `yaml:"name"`
				NumExamples int64  `yaml:"num_examples"`
			} `yaml:"splits"`
			DownloadSize int64 `yaml:"download_size"`
		} `yaml:"dataset_info"`
	}
	if err := yaml.Unmarshal([]byte(parts[1]), &meta); err != nil {
		t.Fatalf("front matter: %v\n%s", err, parts[1])
	}
	if meta.License != "cc-by-4.0" || meta.TaskCategories[0] != "text-generation" || meta.SizeCategories[0] != "n<1K" {
		t.Errorf("meta %+v", meta)
	}
	if p := meta.Configs[0].DataFiles[0]; p.Split != "train" || p.Path != "data/train-*.parquet" {
		t.Errorf("data_files %+v", p)
	}
	f := meta.DatasetInfo.Features
	if len(f) != 13 || f[0].Name != "messages" || len(f[0].List) != 2 || f[7].Sequence != "string" {
		t.Errorf("features %+v", f)
	}
	if meta.DatasetInfo.Splits[0].NumExamples != 7 || meta.DatasetInfo.DownloadSize == 0 {
		t.Errorf("dataset_info %+v", meta.DatasetInfo)
	}
	for _, want := range []string{"| data_analysis | 2 |", "| **total** | 7 |", "| verify | 10 | 7 |", "gpt-4o", "temperature: `0`", "| pandas | 1.5.3 |", "c0ffee", "Python 3.11.2"} {
		if !strings.Contains(parts[2], want) {
			t.Errorf("card body lacks %q", want)
		}
	}
	// The shards' size depends on the Parquet library's encoding, not on
	// the card: keep it out of the golden file.
	golden(t, "card_pybench.md", regexp.MustCompile(`download_size: \d+`).ReplaceAll(card, []byte("download_size: N")))

	var stats struct {
		Rows   int64           `json:"rows"`
		Stats  Stats           `json:"stats"`
		Funnel json.RawMessage `json:"funnel"`
	}
	b, err := os.ReadFile(filepath.Join(dir, rundir.DatasetStats))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &stats); err != nil {
		t.Fatal(err)
	}
	if stats.Rows != 7 || stats.Stats.Trajectories != 7 || len(stats.Stats.Categories) != 5 || !bytes.Contains(stats.Funnel, []byte(`"verify"`)) {
		t.Errorf("stats.json: %s", b)
	}
}

func TestCardOpenAIToolsFeatures(t *testing.T) {
	dir, _ := testCard(t, FormatOpenAITools)
	card, _ := os.ReadFile(filepath.Join(dir, rundir.DatasetCard))
	front := strings.SplitN(string(card), "---\n", 3)
	if len(front) != 3 {
		t.Fatalf("card has no YAML front matter:\n%s", card)
	}
	var meta struct {
		DatasetInfo struct {
			Features []Feature `yaml:"features"`
		} `yaml:"dataset_info"`
	}
	if err := yaml.Unmarshal([]byte(front[1]), &meta); err != nil {
		t.Fatal(err)
	}
	field := func(fs []Feature, name string) Feature {
		for _, f := range fs {
			if f.Name == name {
				return f
			}
		}
		t.Fatalf("no feature %q in %+v", name, fs)
		return Feature{}
	}
	msg := field(meta.DatasetInfo.Features, "messages").List
	args := field(field(field(msg, "tool_calls").List, "function").Struct, "arguments")
	if len(args.Struct) != 1 || args.Struct[0].Name != "code" || args.Struct[0].Dtype != "string" {
		t.Errorf("arguments feature %+v, want a struct {code: string}", args)
	}
	if f := field(msg, "name"); f.Dtype != "string" {
		t.Errorf("messages' name feature %+v", f)
	}
	params := field(field(field(meta.DatasetInfo.Features, "tools").List, "function").Struct, "parameters").Struct
	if f := field(params, "required"); f.Sequence != "string" {
		t.Errorf("tools' required feature %+v", f)
	}
	for _, want := range []string{"apply_chat_template(row[\"messages\"], tools=row[\"tools\"]", "https://huggingface.co/docs/transformers/chat_extras", "{code: the Python the call ran}"} {
		if !strings.Contains(string(card), want) {
			t.Errorf("card lacks %q", want)
		}
	}
}

func TestSizeCategory(t *testing.T) {
	for n, want := range map[int64]string{0: "n<1K", 999: "n<1K", 1000: "1K<n<10K", 99_999: "10K<n<100K", 250_000: "100K<n<1M"} {
		if got := SizeCategory(n); got != want {
			t.Errorf("SizeCategory(%d) = %s, want %s", n, got, want)
		}
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", name, got)
	}
}

// A card of the reference teacher says plainly that it is a script, what
// it is for, and what a real teacher adds; a model's card does not.
func TestCardScriptedTeacherIsNamed(t *testing.T) {
	_, info := testCard(t, "pybench")
	info.Teacher = TeacherCard{Kind: "reference", Format: "pybench"}
	dir := t.TempDir()
	if err := WriteCard(dir, info); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	card := string(b)
	for _, want := range []string{"scripted offline teacher (not a language model", "This is a scripted teacher, not a model", "checking the\npipeline and as seed data", "A real teacher", "adds what a script cannot"} {
		if !strings.Contains(card, want) {
			t.Errorf("reference card lacks %q", want)
		}
	}
	if strings.Contains(card, "solved by a teacher model") {
		t.Error("reference card calls the scripted teacher a model")
	}
	modelDir, _ := testCard(t, "pybench")
	mb, _ := os.ReadFile(filepath.Join(modelDir, "README.md"))
	if strings.Contains(string(mb), "scripted") {
		t.Error("a model teacher's card speaks of a scripted teacher")
	}
}
