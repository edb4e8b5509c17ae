package filters

import (
	"strings"
	"testing"

	"synth/schemas"
)

func trajectory(turns int, last string, statuses ...string) *schemas.Trajectory {
	tr := &schemas.Trajectory{ID: "r", Messages: []schemas.Message{{Role: "system", Content: "sys"}, {Role: "user", Content: "q"}}}
	for i := range turns - 1 {
		tr.Messages = append(tr.Messages, schemas.Message{Role: "assistant", Content: "Analyse: step"}, schemas.Message{Role: "user", Content: "[INFO]This is a Code Interpreter Message:\nok"})
		st := schemas.StatusOK
		if i < len(statuses) {
			st = statuses[i]
		}
		tr.Steps = append(tr.Steps, schemas.Step{Code: "1", Observation: "ok", Status: st})
	}
	tr.Messages = append(tr.Messages, schemas.Message{Role: "assistant", Content: last})
	return tr
}

func TestGate(t *testing.T) {
	missing := trajectory(3, "Finished: done")
	missing.Steps[1].Observation = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'cv2'"
	toolMissing := trajectory(2, "Finished: done")
	toolMissing.Messages = append(toolMissing.Messages[:3], schemas.Message{Role: "tool", Content: "ImportError: No module named wordcloud"}, toolMissing.Messages[4])
	long := trajectory(2, "Finished: "+strings.Repeat("token ", 200))
	tools := func(last schemas.Message, stop string) *schemas.Trajectory {
		tr := trajectory(2, "")
		tr.Teacher.Format, tr.StopReason = "openai-tools", stop
		tr.Messages[len(tr.Messages)-1] = last
		return tr
	}
	answer := schemas.Message{Role: "assistant", Content: "The mean is 3."}
	call := schemas.Message{Role: "assistant", ToolCalls: []schemas.ToolCall{{ID: "c", Name: "execute_python", Arguments: `{"code":"1"}`}}}

	for _, tc := range []struct {
		name   string
		cfg    GateConfig
		tr     *schemas.Trajectory
		reason string
		detail string
	}{
		{"good", GateConfig{}, trajectory(3, "Finished: the mean is 3"), "", ""},
		{"leading space", GateConfig{}, trajectory(3, "\n Finished: ok"), "", ""},
		{"not finished", GateConfig{}, trajectory(3, "Analyse: more to do"), ReasonNotFinished, "Analyse"},
		{"no assistant turn", GateConfig{}, trajectory(0, ""), ReasonNotFinished, ""},
		{"too few turns", GateConfig{MinTurns: 3}, trajectory(2, "Finished: x"), ReasonTooFewTurns, "2 turns < 3"},
		{"too many turns", GateConfig{MaxTurns: 4}, trajectory(5, "Finished: x"), ReasonTooManyTurns, "5 turns > 4"},
		{"failed cells", GateConfig{}, trajectory(4, "Finished: x", "error", "timeout", "ok"), ReasonFailedCells, "2 of 3 cells failed"},
		{"half failed is allowed", GateConfig{}, trajectory(3, "Finished: x", "error", "ok"), "", ""},
		{"missing package", GateConfig{}, missing, ReasonMissingPackage, "cv2"},
		{"missing package in a tool message", GateConfig{}, toolMissing, ReasonMissingPackage, "wordcloud"},
		{"too many tokens", GateConfig{MaxTokens: 100}, long, ReasonTooManyTokens, "> 100"},
		{"too few tokens", GateConfig{MinTokens: 1000}, trajectory(2, "Finished: x"), ReasonTooFewTokens, "< 1000"},
		{"tools: answer without a call", GateConfig{}, tools(answer, schemas.StopFinished), "", ""},
		{"tools: ends in a call", GateConfig{}, tools(call, schemas.StopMaxTurns), ReasonNotFinished, "tool call"},
		{"tools: empty answer", GateConfig{}, tools(schemas.Message{Role: "assistant"}, schemas.StopFinished), ReasonNotFinished, "empty"},
		{"tools: cut off", GateConfig{}, tools(answer, schemas.StopTruncated), ReasonNotFinished, "truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, reason, detail := Gate(Config{Gate: tc.cfg}, tc.tr)
			if reason != tc.reason || ok != (tc.reason == "") {
				t.Fatalf("Gate = %v %q %q, want %q", ok, reason, detail, tc.reason)
			}
			if !strings.Contains(detail, tc.detail) {
				t.Errorf("detail %q, want it to contain %q", detail, tc.detail)
			}
		})
	}
}
