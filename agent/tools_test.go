package agent_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"synth/agent"
	"synth/schemas"
)

func TestToolsParse(t *testing.T) {
	f := agent.NewToolsFormat()
	tests := []struct {
		name string
		msg  schemas.Message
		want agent.Action
	}{
		{"call", schemas.Message{ToolCalls: []schemas.ToolCall{{ID: "c1", Name: "execute_python", Arguments: `{"code":"print(1)"}`}}}, agent.Action{Code: "print(1)", CallID: "c1"}},
		{"raw arguments", schemas.Message{ToolCalls: []schemas.ToolCall{{ID: "c2", Name: "execute_python", Arguments: "print(2)"}}}, agent.Action{Code: "print(2)", CallID: "c2"}},
		{"other tool ignored", schemas.Message{Content: "done", ToolCalls: []schemas.ToolCall{{ID: "c3", Name: "search", Arguments: "{}"}}}, agent.Action{Finished: true, Answer: "done"}},
		{"answer", schemas.Message{Content: " The mean is 4.5. "}, agent.Action{Finished: true, Answer: "The mean is 4.5."}},
		{"finished marker", schemas.Message{Content: "Finished: 4.5"}, agent.Action{Finished: true, Answer: "4.5"}},
		{"bare finished", schemas.Message{Content: "Finished:"}, agent.Action{Finished: true}},
		{"empty", schemas.Message{}, agent.Action{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, f.Parse(tc.msg)); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestToolsRenderRoundTrip(t *testing.T) {
	f := agent.NewToolsFormat()
	for _, act := range []agent.Action{{Code: "x = 1\nprint(x)"}, {Finished: true, Answer: "42"}, {Finished: true}} {
		msg := f.Render(act, "thinking")
		got := f.Parse(msg)
		got.CallID = ""
		if diff := cmp.Diff(act, got); diff != "" {
			t.Errorf("Parse(Render(%+v)) (-want +got):\n%s", act, diff)
		}
	}
	obs := f.Observe(agent.Action{Code: "1", CallID: "c9"}, "out")
	if len(obs) != 1 || obs[0].Role != schemas.RoleTool || obs[0].ToolCallID != "c9" || obs[0].Content != "out" {
		t.Errorf("Observe = %+v", obs)
	}
	if f.Name() != "openai-tools" {
		t.Errorf("Name = %q", f.Name())
	}
}
