package view

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"synth/schemas"
)

// The marker a hostile rollout tries to set: if any of its script runs in
// the viewer, the page's title or body says it.
const pwned = "PWNED"

// hostile holds what rollouts wrote that must stay data: each string would
// run script if a page put it into the document as markup.
var hostile = []string{
	`<script>document.title="` + pwned + `"</script>`,
	`<img src=x onerror="document.title='` + pwned + `'">`,
	`"><svg onload="document.title='` + pwned + `'">`,
	`</pre><iframe src="javascript:parent.document.title='` + pwned + `'"></iframe>`,
	"```python\nprint('</code><script>document.title=\"" + pwned + "\"</script>')\n```",
}

// writeRun writes a small run directory into dir: a well-behaved
// trajectory with a CSV input and a PNG artifact, and hostile ones whose
// messages, answers, artifacts and names carry script. It returns the
// number of trajectories.
func writeRun(t *testing.T, dir string, extra int) int {
	t.Helper()
	mustWrite(t, filepath.Join(dir, "run.json"), `{"config_hash":"x","synth_version":"test","counts":{"rows":2,"bench_tasks":0}}`)
	csvID := storeFile(t, dir, "sales.csv", []byte("region,revenue\nNorth,10\nSouth,<b>20</b>\n"))
	tasks := []schemas.Task{{ID: "t-good", Category: schemas.CategoryData, Subcategory: "cleaning", Generator: "template:table.dropna@1",
		Query: "Drop the rows with nulls from sales.csv", Files: []schemas.TaskFile{{ID: csvID, Name: "sales.csv", Type: "csv"}}, Lang: "en",
		Checks: []schemas.Check{{Kind: schemas.CheckAnswer}}}}
	tasks = append(tasks, schemas.Task{ID: "t-evil", Category: schemas.CategorySoftware, Subcategory: "web", Generator: `template:<script>x</script>@1`,
		Query: hostile[0] + " evil query", Files: []schemas.TaskFile{{ID: csvID, Name: `q"<u>.csv`, Type: "csv"}}})
	var lines []any
	for _, tk := range tasks {
		lines = append(lines, tk)
	}
	writeJSONL(t, filepath.Join(dir, "tasks.jsonl"), lines)
	writeJSONL(t, filepath.Join(dir, "files.jsonl"), []any{schemas.File{ID: csvID, Name: "sales.csv", Type: "csv", Size: 40}})

	png := pngBytes()
	good := schemas.Trajectory{ID: "tr-good", TaskID: "t-good", Teacher: schemas.TeacherInfo{Kind: "reference", Format: "pybench"},
		Messages: []schemas.Message{
			{Role: "system", Content: "You are an agent."},
			{Role: "user", Content: "[INFO]The data is uploaded to ./data/sales.csv"},
			{Role: "user", Content: "Drop the rows with nulls from sales.csv"},
			{Role: "assistant", Content: "Analyse: load it\nAction:\n```python\nimport pandas as pd\nprint(len(pd.read_csv('./data/sales.csv')))\n```"},
			{Role: "user", Content: "[INFO]This is a Code Interpreter Message:\n2\n"},
			{Role: "assistant", Content: "Finished: GOOD-ANSWER 2 rows"},
		},
		Steps:       []schemas.Step{{Code: "print(1)", Observation: "2\n", Status: "ok", ElapsedMS: 12}},
		FinalAnswer: "GOOD-ANSWER 2 rows", StopReason: "finished",
		Artifacts: []schemas.Artifact{storeArtifact(t, dir, "output/chart.png", png)},
		Verdict:   &schemas.Verdict{Passed: true, Checks: []schemas.CheckResult{{Kind: "answer", OK: true, Message: "CHECK-MESSAGE-OK"}}}}
	evilMsgs := []schemas.Message{{Role: "user", Content: hostile[0] + " evil query"}}
	for _, h := range hostile {
		evilMsgs = append(evilMsgs, schemas.Message{Role: "assistant", Content: h}, schemas.Message{Role: "user", Content: "[INFO]This is a Code Interpreter Message:\n" + h})
	}
	evilMsgs = append(evilMsgs, schemas.Message{Role: "assistant", ToolCalls: []schemas.ToolCall{{ID: "1", Name: hostile[1], Arguments: `{"code":"` + jsonString(hostile[0]) + `"}`}}},
		schemas.Message{Role: "tool", Content: hostile[2]})
	evil := schemas.Trajectory{ID: `tr-evil"<script>`, TaskID: "t-evil", Teacher: schemas.TeacherInfo{Kind: "openai", Model: hostile[1]},
		Messages: evilMsgs, FinalAnswer: hostile[0], StopReason: hostile[1], Error: hostile[2],
		Artifacts: []schemas.Artifact{
			storeArtifact(t, dir, "output/page.html", []byte(`<html><body><h1>HTML-ARTIFACT</h1><script>parent.document.title="`+pwned+`";top.document.title="`+pwned+`"</script><img src=x onerror="top.document.title='`+pwned+`'"></body></html>`)),
			storeArtifact(t, dir, "output/pic.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="top.document.title='`+pwned+`'"><script>top.document.title="`+pwned+`"</script><rect width="10" height="10"/></svg>`)),
			storeArtifact(t, dir, `output/"><img src=x onerror=alert(1)>.csv`, []byte("a,b\n<script>x</script>,2\n")),
			{Path: "output/escape.txt", SHA256: "../../../../etc/passwd", Size: 10},
		},
		Verdict: &schemas.Verdict{Passed: false, Failure: schemas.FailCheck, Checks: []schemas.CheckResult{{Kind: "python", OK: false, Message: hostile[1]}}}}
	trajs := []any{good, evil}
	for i := range extra {
		tr := good
		tr.ID = fmt.Sprintf("tr-extra-%d", i)
		tr.Artifacts = nil
		trajs = append(trajs, tr)
	}
	writeJSONL(t, filepath.Join(dir, "trajectories.jsonl"), trajs)
	return len(trajs)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func storeFile(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	id := sha(b)
	mustWrite(t, filepath.Join(dir, "files", id[:2], id, name), string(b))
	return id
}

func storeArtifact(t *testing.T, dir, path string, b []byte) schemas.Artifact {
	t.Helper()
	id := sha(b)
	mustWrite(t, filepath.Join(dir, "artifacts", id[:2], id), string(b))
	return schemas.Artifact{Path: path, SHA256: id, Size: int64(len(b))}
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func mustWrite(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeJSONL(t *testing.T, path string, recs []any) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// pngBytes is a 16x16 red PNG.
func pngBytes() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = 0xff
		if i%4 == 1 || i%4 == 2 {
			img.Pix[i] = 0
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
}
