package pipeline

import (
	"strings"
	"testing"
)

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
