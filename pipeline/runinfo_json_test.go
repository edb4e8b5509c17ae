package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"synth/llm"
)

// TestRunJSONKeys: run.json shows the config under synth.yaml's keys and
// reads back to the same config.
func TestRunJSONKeys(t *testing.T) {
	cfg := Default()
	temp := 0.7
	cfg.Teacher.Temperature = &temp
	cfg.LLM.Timeout = 90 * time.Second
	cfg.LLM.Endpoints = []llm.Endpoint{{BaseURL: "http://127.0.0.1:8000/v1", Model: "m", KeyEnv: "K"}}
	dir := t.TempDir()
	ri := &RunInfo{ConfigHash: cfg.Hash(), Config: cfg, Stages: map[string]time.Time{}, Counts: map[string]int{}}
	if err := ri.save(dir); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, runFile))
	var raw struct {
		Config map[string]any `json:"config"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	for k := range raw.Config {
		if k != strings.ToLower(k) {
			t.Errorf("run.json config key %q is not snake_case", k)
		}
	}
	teacher, _ := raw.Config["teacher"].(map[string]any)
	if teacher["temperature"] != 0.7 || !strings.Contains(string(b), `"base_url": "http://127.0.0.1:8000/v1"`) || !strings.Contains(string(b), `"timeout": "1m30s"`) {
		t.Errorf("run.json does not show the settings as synth.yaml spells them:\n%s", b)
	}
	back, err := readRunInfo(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.ConfigHash != cfg.Hash() || back.Config.LLM.Endpoints[0].BaseURL != "http://127.0.0.1:8000/v1" || *back.Config.Teacher.Temperature != 0.7 || back.Config.LLM.Timeout != 90*time.Second {
		t.Errorf("run.json reads back as another config: %+v", back.Config)
	}
}

// TestTeacherSettings: the card shows the sampling settings the rollouts
// ran with, the default temperature included, never a nil.
func TestTeacherSettings(t *testing.T) {
	tc := Default().Teacher
	tc.Kind = "openai"
	s := teacherSettings(tc)
	if s["temperature"] != 0.7 || s["max_turns"] != tc.MaxTurns || s["samples"] != 1 {
		t.Errorf("default settings %v", s)
	}
	top := 0.9
	tc.TopP, tc.MaxReplyTokens, tc.MaxTurns = &top, 2048, 0
	s = teacherSettings(tc)
	if s["top_p"] != 0.9 || s["max_reply_tokens"] != 2048 || s["max_turns"] != 10 {
		t.Errorf("settings %v", s)
	}
	for k, v := range s {
		if v == nil || strings.Contains(k, "Temperature") {
			t.Errorf("setting %s = %v", k, v)
		}
	}
}
