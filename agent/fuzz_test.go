package agent

import (
	"testing"

	"synth/schemas"
)

// FuzzParse feeds a teacher's reply, text and tool call alike, to every
// format's reader: none may panic, and a turn is code or a final answer,
// never both.
func FuzzParse(f *testing.F) {
	f.Add("Analyse: x\nAction:\n```python\nprint(1)\n```", "execute_python", `{"code": "print(1)"}`)
	f.Add("Finished: 42", "", "")
	f.Add("```python\nprint(1)\n```\nFinished: 3", "python", `"print(2)"`)
	f.Add("```py\nx\n``", "execute_python", `{"code": 7}`)
	f.Fuzz(func(t *testing.T, content, tool, args string) {
		msg := schemas.Message{Role: schemas.RoleAssistant, Content: content}
		if tool != "" {
			msg.ToolCalls = []schemas.ToolCall{{ID: "c1", Name: tool, Arguments: args}}
		}
		for _, fm := range []Format{PyBench{}, &PyBenchHarness{}, Tools{}} {
			a := fm.Parse(msg)
			if a.Code != "" && a.Finished {
				t.Fatalf("%s: a turn with code %q is also finished", fm.Name(), a.Code)
			}
		}
	})
}

// FuzzDecodeMessage feeds an imported trajectory's message, as a replay
// file holds it.
func FuzzDecodeMessage(f *testing.F) {
	f.Add([]byte(`{"role":"assistant","content":"Finished: 1"}`))
	f.Add([]byte(`{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"execute_python","arguments":"{}"}}]}`))
	f.Add([]byte(`{"role":"tool","tool_call_id":"a","content":[{"type":"text","text":"x"}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		DecodeMessage(raw)
	})
}
