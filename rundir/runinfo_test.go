package rundir

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A config and a run.json shaped as pipeline's: nested sections, a
// pointer, a map of structs, a slice of structs and an embedded struct.
type (
	testConfig struct {
		Seed     int                     `json:"seed"`
		Teacher  testTeacher             `json:"teacher"`
		Prices   map[string]testPrice    `json:"prices"`
		Sources  []testSource            `json:"sources"`
		TopP     *float64                `json:"top_p"`
		Extra    map[string]any          `json:"extra"`
		Sections map[string]*testTeacher `json:"sections"`
	}
	testTeacher struct {
		MaxTurns int    `json:"max_turns"`
		Model    string `json:"model"`
	}
	testPrice struct {
		Input float64 `json:"input"`
	}
	testSource struct {
		testEmbedded
		Spec string `json:"spec"`
	}
	testEmbedded struct {
		RateLimit int `json:"rate_limit"`
	}
	testRunInfo struct {
		ConfigHash string         `json:"config_hash"`
		Config     testConfig     `json:"config"`
		Counts     map[string]int `json:"counts"`
	}
)

func TestRunInfoRoundTrip(t *testing.T) {
	dir := t.TempDir()
	top := 0.9
	in := testRunInfo{ConfigHash: "h", Config: testConfig{Seed: 7, Teacher: testTeacher{MaxTurns: 10, Model: "m"}, TopP: &top}, Counts: map[string]int{"rows": 3}}
	if err := WriteRunInfo(dir, &in); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, RunInfo))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.MarshalIndent(&in, "", "  ")
	if string(b) != string(want)+"\n" {
		t.Errorf("run.json holds\n%s\nwant the indented record and a newline:\n%s", b, want)
	}
	if _, err := os.Stat(filepath.Join(dir, RunInfo+".tmp")); !os.IsNotExist(err) {
		t.Errorf("the temporary file is left behind: %v", err)
	}
	var back testRunInfo
	found, err := ReadRunInfo(dir, &back)
	if err != nil || !found || !reflect.DeepEqual(back, in) {
		t.Fatalf("read back %+v, %v, %v; want %+v", back, found, err, in)
	}
}

func TestReadRunInfoMissingAndCorrupt(t *testing.T) {
	dir := t.TempDir()
	var ri testRunInfo
	if found, err := ReadRunInfo(dir, &ri); found || err != nil {
		t.Fatalf("no run.json: found %v, %v; want neither", found, err)
	}
	os.WriteFile(filepath.Join(dir, RunInfo), []byte(`{"config_hash": `), 0o644)
	found, err := ReadRunInfo(dir, &ri)
	if found || err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, RunInfo)+": ") || !strings.HasSuffix(err.Error(), "(move it away to start a new run)") {
		t.Fatalf("corrupt run.json: found %v, %v; want an error with its path and what to do", found, err)
	}
}

// TestReadRunInfoLegacyConfig: a config an earlier synth wrote under Go's
// field names reads into the "config" field by those names, at every
// depth; data keys (a map of any) and keys the config does not know are
// left as they are.
func TestReadRunInfoLegacyConfig(t *testing.T) {
	dir := t.TempDir()
	doc := `{"config_hash": "h", "counts": {"rows": 1}, "config": {
		"Seed": 42, "Teacher": {"MaxTurns": 11, "Model": "qwen"}, "TopP": 0.95,
		"Prices": {"qwen": {"Input": 0.5}}, "Sources": [{"Spec": "sample", "RateLimit": 3}],
		"Extra": {"MaxTurns": 1}, "Sections": {"a": {"MaxTurns": 2}}, "Unknown": 1}}`
	if err := os.WriteFile(filepath.Join(dir, RunInfo), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	var ri testRunInfo
	found, err := ReadRunInfo(dir, &ri)
	if err != nil || !found {
		t.Fatalf("found %v, %v", found, err)
	}
	top := 0.95
	want := testRunInfo{ConfigHash: "h", Counts: map[string]int{"rows": 1}, Config: testConfig{
		Seed: 42, Teacher: testTeacher{MaxTurns: 11, Model: "qwen"}, TopP: &top,
		Prices: map[string]testPrice{"qwen": {Input: 0.5}}, Sources: []testSource{{testEmbedded{RateLimit: 3}, "sample"}},
		Extra: map[string]any{"MaxTurns": 1.0}, Sections: map[string]*testTeacher{"a": {MaxTurns: 2}}}}
	if !reflect.DeepEqual(ri, want) {
		t.Fatalf("legacy run.json reads as\n%+v\nwant\n%+v", ri, want)
	}

	// A reader without a config field reads the rest.
	var counts struct {
		Counts map[string]int `json:"counts"`
	}
	if found, err := ReadRunInfo(dir, &counts); err != nil || !found || counts.Counts["rows"] != 1 {
		t.Fatalf("counts %v, %v, %v", counts, found, err)
	}
}

func TestFindRunInfo(t *testing.T) {
	run := t.TempDir()
	data := filepath.Join(run, DatasetDataDir)
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	shard := filepath.Join(data, "train-00000-of-00001.parquet")
	os.WriteFile(shard, nil, 0o644)
	if got := FindRunInfo(shard); got != "" {
		t.Fatalf("no run.json yet, found %q", got)
	}
	want := filepath.Join(run, RunInfo)
	os.WriteFile(want, []byte("{}"), 0o644)
	for _, p := range []string{run, filepath.Join(run, DatasetDir), data, shard} {
		if got := FindRunInfo(p); got != want {
			t.Errorf("FindRunInfo(%s) = %q, want %q", p, got, want)
		}
	}
	deeper := filepath.Join(data, "more", "deeper")
	os.MkdirAll(deeper, 0o755)
	if got := FindRunInfo(deeper); got != "" {
		t.Errorf("a folder three below the run finds %q", got)
	}
}
