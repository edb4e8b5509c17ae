package dataset

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"synth/agent"
	"synth/internal/duckdbtest"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

// toolsTestRow is a row as the openai-tools format's rollouts make it:
// turns rendered and answered by agent.Tools, then a teacher's own call
// with spaced JSON, one whose arguments are bare code, and the answer.
func toolsTestRow(i int) schemas.Row {
	f := agent.NewToolsFormat()
	r := testRow(i)
	r.Tools = f.Tools()
	first := f.Render(agent.Action{Code: "import pandas as pd\nprint(\"<ok>\")"}, "Load the file.")
	msgs := []schemas.Message{{Role: "system", Content: agent.DefaultToolsSystemPrompt}, {Role: "user", Content: "q"}, first}
	msgs = append(msgs, f.Observe(f.Parse(first), "<ok>")...)
	spaced := schemas.Message{Role: "assistant", ToolCalls: []schemas.ToolCall{{ID: "call_b", Name: agent.ToolName, Arguments: `{"code": "x = 1\nprint(x)"}`}}}
	msgs = append(msgs, spaced)
	msgs = append(msgs, f.Observe(f.Parse(spaced), "1")...)
	bare := schemas.Message{Role: "assistant", ToolCalls: []schemas.ToolCall{{ID: "call_c", Name: agent.ToolName, Arguments: "print(2)"}}}
	msgs = append(msgs, bare)
	msgs = append(msgs, f.Observe(f.Parse(bare), "2")...)
	msgs = append(msgs, f.Render(agent.Action{Finished: true, Answer: "x is 1"}, ""))
	r.Messages = make([]schemas.RowMessage, len(msgs))
	for j, m := range msgs {
		r.Messages[j] = schemas.RowMessage{Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID}
	}
	return r
}

func writeToolsRows(t *testing.T, dir string, jsonl bool) []string {
	t.Helper()
	w, err := NewWriter(dir, Config{Format: FormatOpenAITools, JSONL: jsonl})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := w.Write(toolsTestRow(i)); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// TestOpenAIToolsDuckDB: DuckDB reads a call's arguments as a struct whose
// code is the code the call ran, tool messages name their tool, and tools
// is a list of JSON-schema definitions.
func TestOpenAIToolsDuckDB(t *testing.T) {
	duckdbtest.Need(t)
	dir := t.TempDir()
	writeToolsRows(t, dir, false)
	src := "read_parquet(" + duckdbtest.Quote(filepath.Join(dir, "*.parquet")) + ")"

	types := duckdbtest.Query(t, "SELECT typeof(messages[3].tool_calls[1].function.arguments) AS args, typeof(tools) AS tools FROM "+src+" LIMIT 1")
	if types[0]["args"] != "STRUCT(code VARCHAR)" || !strings.HasPrefix(types[0]["tools"].(string), "STRUCT(\"type\" VARCHAR, \"function\" STRUCT(") {
		t.Errorf("column types %v", types[0])
	}

	rows := duckdbtest.Query(t, "SELECT m.role, m.name, m.tool_call_id AS call, m.tool_calls[1].id AS id, m.tool_calls[1].type AS type, "+
		"m.tool_calls[1].function.name AS fn, m.tool_calls[1].function.arguments.code AS code "+
		"FROM (SELECT unnest(messages) AS m FROM "+src+" WHERE id = 'traj-0001')")
	if len(rows) != 9 {
		t.Fatalf("%d messages, want 9: %v", len(rows), rows)
	}
	want := []struct{ role, code, call string }{
		{"system", "", ""}, {"user", "", ""},
		{"assistant", "import pandas as pd\nprint(\"<ok>\")", ""}, {"tool", "", "call"},
		{"assistant", "x = 1\nprint(x)", ""}, {"tool", "", "call_b"},
		{"assistant", "print(2)", ""}, {"tool", "", "call_c"},
		{"assistant", "", ""},
	}
	for i, w := range want {
		m := rows[i]
		if m["role"] != w.role {
			t.Errorf("message %d: role %v, want %s", i, m["role"], w.role)
		}
		switch w.role {
		case "assistant":
			if w.code != "" && (m["code"] != w.code || m["type"] != "function" || m["fn"] != agent.ToolName || m["id"] == nil) {
				t.Errorf("message %d: call %v, want code %q", i, m, w.code)
			}
		case "tool":
			if m["name"] != agent.ToolName || !strings.HasPrefix(m["call"].(string), w.call) || m["call"] != rows[i-1]["id"] {
				t.Errorf("message %d: tool message %v does not name its tool and call (%v)", i, m, rows[i-1]["id"])
			}
		default:
			if m["name"] != nil || m["call"] != nil || m["code"] != nil {
				t.Errorf("message %d: %v has tool fields", i, m)
			}
		}
	}

	defs := duckdbtest.Query(t, "SELECT tools[1].type AS type, tools[1].function.name AS name, tools[1].function.parameters.properties.code.type AS code, "+
		"tools[1].function.parameters.required AS required, len(tools) AS n FROM "+src+" LIMIT 1")
	if d := defs[0]; d["type"] != "function" || d["name"] != agent.ToolName || d["code"] != "string" || d["n"] != float64(1) ||
		len(d["required"].([]any)) != 1 || d["required"].([]any)[0] != "code" {
		t.Errorf("tools %v", d)
	}

	// DuckDB's JSON of the messages holds arguments as an object.
	js := duckdbtest.Query(t, "SELECT to_json(messages)::VARCHAR AS j FROM "+src+" WHERE id = 'traj-0002'")
	var msgs []struct {
		ToolCalls []struct {
			Function struct {
				Arguments any `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal([]byte(js[0]["j"].(string)), &msgs); err != nil {
		t.Fatal(err)
	}
	if args, ok := msgs[4].ToolCalls[0].Function.Arguments.(map[string]any); !ok || args["code"] != "x = 1\nprint(x)" {
		t.Errorf("to_json arguments = %#v, want an object", msgs[4].ToolCalls[0].Function.Arguments)
	}
}

// checkToolsJSONPy checks JSONL rows with Python's json as a training
// script would load them: json.dumps of the messages keeps arguments a
// dict, tool messages name their tool, tools are dicts.
const checkToolsJSONPy = `
import json, sys
n = 0
for path in sys.argv[1:]:
    for line in open(path, encoding="utf-8"):
        row = json.loads(line)
        msgs = json.loads(json.dumps(row["messages"]))
        calls = [c for m in msgs for c in m["tool_calls"]]
        assert calls, "no tool calls"
        for c in calls:
            assert c["type"] == "function", c
            assert isinstance(c["function"]["arguments"], dict), c
            assert isinstance(c["function"]["arguments"]["code"], str), c
        tools = [m for m in msgs if m["role"] == "tool"]
        assert tools and all(m["name"] == c["function"]["name"] for m, c in zip(tools, calls)), tools
        assert all(m["tool_call_id"] == c["id"] for m, c in zip(tools, calls)), tools
        assert all(m["name"] is None for m in msgs if m["role"] != "tool"), msgs
        assert isinstance(row["tools"][0]["function"]["parameters"], dict), row["tools"]
        n += 1
print(n)
`

func runToolsJSONPy(t *testing.T, paths []string) {
	t.Helper()
	python := pyenvtest.Python(t)
	out, err := exec.Command(python, append([]string{"-c", checkToolsJSONPy}, paths...)...).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "3" {
		t.Errorf("python: %v\n%s", err, out)
	}
}

// TestOpenAIToolsJSONL: the JSONL the writer and ExportJSONL write hold
// the rows in the same shape as the Parquet.
func TestOpenAIToolsJSONL(t *testing.T) {
	dir := t.TempDir()
	paths := writeToolsRows(t, dir, true)
	var shards, jsonls []string
	for _, p := range paths {
		if strings.HasSuffix(p, ".jsonl") {
			jsonls = append(jsonls, p)
		} else {
			shards = append(shards, p)
		}
	}
	runToolsJSONPy(t, jsonls)
	exported, err := ExportJSONL(t.TempDir(), shards)
	if err != nil {
		t.Fatal(err)
	}
	runToolsJSONPy(t, exported)
}

// TestOpenAIToolsRefusesOtherTools: tools the layout has no columns for
// are an error, not silently dropped.
func TestOpenAIToolsRefusesOtherTools(t *testing.T) {
	w, err := NewWriter(t.TempDir(), Config{Format: FormatOpenAITools})
	if err != nil {
		t.Fatal(err)
	}
	r := toolsTestRow(1)
	other := `[{"type":"function","function":{"name":"search","parameters":{"type":"object","properties":{"query":{"type":"string"}}}}}]`
	r.Tools = &other
	if err := w.Write(r); err == nil || !strings.Contains(err.Error(), "openai-tools") || !strings.Contains(err.Error(), "query") {
		t.Errorf("Write = %v, want an error naming the layout and the field", err)
	}
	w.Abort()
}

// TestReadLegacyToolsShard: a shard of the earlier openai-tools layout
// (arguments and tools as JSON text) still reads, and exports in the
// current shape.
func TestReadLegacyToolsShard(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "train-00000-of-00001.parquet")
	tools := *agent.NewToolsFormat().Tools()
	id := "c1"
	row := legacyToolsRow{ToolChoices: "auto", ID: "r1", Tools: &tools, FileTypes: []string{}, Messages: []legacyToolsMessage{
		{Role: "user", Content: "q"},
		{Role: "assistant"},
		{Role: "tool", Content: "1", ToolCallID: &id},
	}}
	row.Messages[1].ToolCalls = make([]struct {
		ID       string `parquet:"id"`
		Type     string `parquet:"type"`
		Function struct {
			Name      string `parquet:"name"`
			Arguments string `parquet:"arguments"`
		} `parquet:"function"`
	}, 1)
	call := &row.Messages[1].ToolCalls[0]
	call.ID, call.Type, call.Function.Name, call.Function.Arguments = id, "function", agent.ToolName, `{"code": "print(1)"}`
	if err := parquet.WriteFile(path, []legacyToolsRow{row}); err != nil {
		t.Fatal(err)
	}
	var got []schemas.Row
	if err := ReadRows(path, func(r *schemas.Row) error { got = append(got, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Messages[1].ToolCalls[0].Arguments != `{"code": "print(1)"}` || got[0].Messages[2].ToolCallID != id || *got[0].Tools != tools {
		t.Fatalf("legacy rows %+v", got)
	}
	out, err := ExportJSONL(t.TempDir(), []string{path})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out[0])
	if !strings.Contains(string(b), `"arguments":{"code":"print(1)"}`) || !strings.Contains(string(b), `"tool_call_id":"c1","name":"execute_python"`) {
		t.Errorf("exported legacy row %s", b)
	}
}
