package pipeline

import (
	"strings"
	"testing"

	"synth/config"
	"synth/llm"
)

// TestTeacherSettings: the card shows the sampling settings the rollouts
// ran with, the default temperature included, never a nil.
func TestTeacherSettings(t *testing.T) {
	tc := config.Default().Teacher
	tc.Kind = "openai"
	s := teacherSettings(tc, llm.Config{})
	if s["temperature"] != 0.7 || s["max_turns"] != tc.MaxTurns || s["samples"] != 1 {
		t.Errorf("default settings %v", s)
	}
	top := 0.9
	tc.TopP, tc.MaxReplyTokens, tc.MaxTurns = &top, 2048, 0
	s = teacherSettings(tc, llm.Config{})
	if s["top_p"] != 0.9 || s["max_reply_tokens"] != 2048 || s["max_turns"] != 10 {
		t.Errorf("settings %v", s)
	}
	for k, v := range s {
		if v == nil || strings.Contains(k, "Temperature") {
			t.Errorf("setting %s = %v", k, v)
		}
	}
}

// TestTeacherSettingsExtra: the extra body fields sent to the teacher's
// endpoints are among the settings, endpoint over config, the teacher's
// own settings over both, and a field the endpoints disagree on is shown
// per endpoint.
func TestTeacherSettingsExtra(t *testing.T) {
	tc := config.Default().Teacher
	tc.Kind, tc.Model, tc.MaxReplyTokens = "openai", "m", 512
	lc := llm.Config{
		Extra: map[string]any{"top_k": 20, "temperature": 1.5, "max_tokens": 99, "chat_template_kwargs": map[string]any{"enable_thinking": false}},
		Endpoints: []llm.Endpoint{
			{BaseURL: "http://a/v1", Model: "m", Extra: map[string]any{"repetition_penalty": 1.05, "seed": 1}},
			{BaseURL: "http://b/v1", Model: "m", Extra: map[string]any{"repetition_penalty": 1.05, "seed": 2}},
			{BaseURL: "http://c/v1", Model: "other", Extra: map[string]any{"min_p": 0.1}},
		},
	}
	s := teacherSettings(tc, lc)
	want := map[string]any{
		"top_k": "20", "repetition_penalty": "1.05", "chat_template_kwargs": `{"enable_thinking":false}`,
		"seed": "http://a/v1: 1; http://b/v1: 2", "temperature": 0.7, "max_reply_tokens": 512,
	}
	for k, v := range want {
		if s[k] != v {
			t.Errorf("%s = %v, want %v", k, s[k], v)
		}
	}
	if _, ok := s["min_p"]; ok {
		t.Error("another model's endpoint's extra is among the teacher's settings")
	}
	if _, ok := s["max_tokens"]; ok {
		t.Error("max_tokens shown though max_reply_tokens replaces it")
	}
}
