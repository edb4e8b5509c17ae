package arrowexport

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"synth/agent"
	"synth/dataset"
	"synth/schemas"
)

func writeShards(t *testing.T, format string, n int) []string {
	t.Helper()
	w, err := dataset.NewWriter(t.TempDir(), dataset.Config{Format: format, ShardRows: 4})
	if err != nil {
		t.Fatal(err)
	}
	tools := *agent.NewToolsFormat().Tools()
	for i := range n {
		r := schemas.Row{
			Messages: []schemas.RowMessage{
				{Role: "user", Content: "q"},
				{Role: "assistant", Content: "Finished: " + string(rune('a'+i))},
			},
			ToolChoices: "auto", ID: "r" + string(rune('a'+i)), TaskID: "t", Category: schemas.CategoryData,
			FileTypes: []string{"csv", "xlsx"}, Teacher: "reference", Turns: 1, Tokens: int64(i), Passed: true,
		}
		if format == dataset.FormatOpenAITools {
			r.Tools = &tools
			r.Messages = []schemas.RowMessage{
				{Role: "user", Content: "q"},
				{Role: "assistant", ToolCalls: []schemas.ToolCall{{ID: "c1", Name: "execute_python", Arguments: `{"code":"1"}`}}},
				{Role: "tool", Content: "1", ToolCallID: "c1"},
				{Role: "assistant", Content: "Finished: 1"},
			}
		}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// readArrow reads an IPC stream file with the Arrow reader.
func readArrow(t *testing.T, path string) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r, err := ipc.NewReader(f)
	if err != nil {
		t.Fatalf("%s is not an Arrow IPC stream: %v", path, err)
	}
	var recs []arrow.RecordBatch
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return r.Schema(), recs
}

func TestSaveToDisk(t *testing.T) {
	shards := writeShards(t, dataset.FormatPyBench, 10) // 3 shards: 4, 4, 2 rows
	dst := t.TempDir()
	os.WriteFile(filepath.Join(dst, "data-00007-of-00009.arrow"), []byte("stale"), 0o644)
	res, err := SaveToDisk(dst, shards, Options{BatchRows: 3, License: "cc-by-4.0"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 10 || len(res.Files) != 3 || filepath.Base(res.Files[2]) != "data-00002-of-00003.arrow" {
		t.Fatalf("result %+v", res)
	}
	if _, err := os.Stat(filepath.Join(dst, "data-00007-of-00009.arrow")); !os.IsNotExist(err) {
		t.Error("a stale Arrow file of an earlier export was kept")
	}

	schema, recs := readArrow(t, res.Files[0])
	if got := schema.Field(0).Type.String(); got != "list<item: struct<role: utf8 nullable, content: utf8 nullable>, nullable>" {
		t.Errorf("messages type %s", got)
	}
	if names := schemaNames(schema); names[0] != "messages" || names[1] != "tools" || names[2] != "tool_choices" || len(names) != 13 {
		t.Errorf("columns %v", names)
	}
	hf, ok := schema.Metadata().GetValue("huggingface")
	var meta struct {
		Info struct {
			Features map[string]any `json:"features"`
		} `json:"info"`
	}
	if !ok || json.Unmarshal([]byte(hf), &meta) != nil || meta.Info.Features["messages"] == nil {
		t.Errorf("huggingface metadata %q", hf)
	}
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	if len(recs) != 2 || rows != 4 {
		t.Errorf("first file: %d batches, %d rows; want 2 batches (3+1), 4 rows", len(recs), rows)
	}
	msgs := recs[0].Column(0).(*array.List)
	content := msgs.ListValues().(*array.Struct).Field(1).(*array.String)
	if content.Value(1) != "Finished: a" {
		t.Errorf("first row's second message %q", content.Value(1))
	}
	if !recs[0].Column(1).IsNull(0) || recs[0].Column(10).(*array.Int64).Value(2) != 2 {
		t.Error("tools should be null and tokens 2 in the third row")
	}

	var state map[string]any
	b, _ := os.ReadFile(filepath.Join(dst, StateFile))
	if err := json.Unmarshal(b, &state); err != nil {
		t.Fatal(err)
	}
	files := state["_data_files"].([]any)
	if len(files) != 3 || files[0].(map[string]any)["filename"] != "data-00000-of-00003.arrow" || state["_split"] != "train" || state["_format_type"] != nil || len(state["_fingerprint"].(string)) != 16 {
		t.Errorf("state.json %s", b)
	}
	var info map[string]any
	b, _ = os.ReadFile(filepath.Join(dst, InfoFile))
	if err := json.Unmarshal(b, &info); err != nil {
		t.Fatal(err)
	}
	split := info["splits"].(map[string]any)["train"].(map[string]any)
	if split["num_examples"] != float64(10) || info["license"] != "cc-by-4.0" {
		t.Errorf("dataset_info.json %s", b)
	}
	ft := info["features"].(map[string]any)
	if ft["file_types"].(map[string]any)["_type"] != "Sequence" || ft["passed"].(map[string]any)["dtype"] != "bool" {
		t.Errorf("features %v", ft)
	}
}

func TestSaveToDiskOpenAITools(t *testing.T) {
	shards := writeShards(t, dataset.FormatOpenAITools, 2)
	res, err := SaveToDisk(t.TempDir(), shards, Options{})
	if err != nil {
		t.Fatal(err)
	}
	schema, recs := readArrow(t, res.Files[0])
	want := "list<item: struct<role: utf8 nullable, content: utf8 nullable, tool_calls: list<item: struct<id: utf8 nullable, type: utf8 nullable, function: struct<name: utf8 nullable, arguments: struct<code: utf8 nullable> nullable> nullable>, nullable> nullable, tool_call_id: utf8 nullable, name: utf8 nullable>, nullable>"
	if got := schema.Field(0).Type.String(); got != want {
		t.Errorf("messages type\n got %s\nwant %s", got, want)
	}
	msgs := recs[0].Column(0).(*array.List).ListValues().(*array.Struct)
	calls := msgs.Field(2).(*array.List).ListValues().(*array.Struct)
	code := calls.Field(2).(*array.Struct).Field(1).(*array.Struct).Field(0).(*array.String)
	if code.Len() != 2 || code.Value(0) != "1" {
		t.Errorf("tool call arguments.code: %v", code)
	}
	ids, names := msgs.Field(3).(*array.String), msgs.Field(4).(*array.String)
	if !ids.IsNull(0) || ids.Value(2) != "c1" || !names.IsNull(1) || names.Value(2) != agent.ToolName {
		t.Errorf("tool_call_id %v, name %v", ids, names)
	}
	tools := recs[0].Column(1).(*array.List)
	def := tools.ListValues().(*array.Struct)
	fn := def.Field(1).(*array.Struct)
	params := fn.Field(2).(*array.Struct)
	codeType := params.Field(1).(*array.Struct).Field(0).(*array.Struct).Field(0).(*array.String)
	required := params.Field(2).(*array.List).ListValues().(*array.String)
	if tools.Len() != 2 || def.Len() != 2 || fn.Field(0).(*array.String).Value(0) != agent.ToolName || codeType.Value(0) != "string" || required.Value(0) != "code" {
		t.Errorf("tools column: %v", tools)
	}
	if typ := schema.Field(1).Type.String(); !strings.HasPrefix(typ, "list<item: struct<type: utf8 nullable, function: struct<name: utf8 nullable, description: utf8 nullable, parameters: struct<") {
		t.Errorf("tools type %s", typ)
	}
}

func TestSaveToDiskEmpty(t *testing.T) {
	dst := t.TempDir()
	res, err := SaveToDisk(dst, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 0 || len(res.Files) != 1 {
		t.Fatalf("%+v", res)
	}
	_, recs := readArrow(t, res.Files[0])
	if len(recs) != 0 {
		t.Errorf("%d batches in an empty export", len(recs))
	}
}

func schemaNames(s *arrow.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name)
	}
	return out
}
