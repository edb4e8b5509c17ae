package dataset

import (
	"os"
	"path/filepath"
	"testing"

	"synth/internal/duckdbtest"
)

func TestReadStatsSynthDataset(t *testing.T) {
	dir, _ := testCard(t, FormatPyBench)
	// The fake funnel's verify stage: 10 in, 7 out.
	for _, path := range []string{dir, filepath.Join(dir, "data"), filepath.Join(dir, "data", "train-00000-of-00001.parquet")} {
		rep, err := ReadStats(path, TokensSourceColumn)
		if err != nil {
			t.Fatal(err)
		}
		s := rep.Stats
		if s.Trajectories != 7 || s.Turns.UpTo3 != 7 || s.AvgTurns != 2 || len(s.Categories) != 5 || s.Judged != 7 || s.Passed != 4 {
			t.Errorf("%s: stats %+v", path, s)
		}
		if s.AvgTokens != 103 || s.TokensCounted != TokensFromColumn {
			t.Errorf("%s: tokens %v (%s), want the column's 103", path, s.AvgTokens, s.TokensCounted)
		}
		if path == dir && (rep.RolloutPassRate == nil || *rep.RolloutPassRate != 0.7) {
			t.Errorf("rollout pass rate %v, want 0.7 from stats.json", rep.RolloutPassRate)
		}
	}
	rep, err := ReadStats(dir, TokensSourceOffline)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stats.AvgTokens < 20 || rep.Stats.AvgTokens > 60 || rep.Stats.TokensCounted != TokensOffline {
		t.Errorf("offline tokens %v (%s)", rep.Stats.AvgTokens, rep.Stats.TokensCounted)
	}
}

func TestReadStatsRunDirectory(t *testing.T) {
	run := t.TempDir()
	os.WriteFile(filepath.Join(run, "tasks.jsonl"), []byte(`{"id": "t1", "query": "q"}`+"\n"), 0o644)
	traj := `{"id": "r1", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "Finished: a"}], "verdict": {"passed": true}}
{"id": "r2", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}], "verdict": {"passed": false, "failure": "max_turns"}}
`
	os.WriteFile(filepath.Join(run, "trajectories.jsonl"), []byte(traj), 0o644)
	writeRows(t, filepath.Join(run, "dataset", "data"), Config{}, 3)
	rep, err := ReadStats(run, "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stats.Trajectories != 3 || len(rep.Files) != 1 {
		t.Errorf("run directory: %d trajectories from %v, want the dataset's 3", rep.Stats.Trajectories, rep.Files)
	}
	rep, err = ReadStats(filepath.Join(run, "trajectories.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stats.Trajectories != 2 || rep.Stats.PassRate == nil || *rep.Stats.PassRate != 0.5 {
		t.Errorf("trajectories.jsonl: %+v", rep.Stats.Tally)
	}
}

func TestReadStatsOtherLayouts(t *testing.T) {
	dir := t.TempDir()
	jsonl := `{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "text", "text": "hello there"}]}, {"role": "assistant", "content": null}]}
{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}], "category": "math"}
`
	os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(jsonl), 0o644)
	os.WriteFile(filepath.Join(dir, "b.json"), []byte(`[{"conversations": [{"from": "human", "value": "q"}, {"from": "gpt", "value": "a"}, {"from": "gpt", "value": "b"}, {"from": "gpt", "value": "c"}, {"from": "gpt", "value": "d"}]}]`), 0o644)
	rep, err := ReadStats(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Stats
	if s.Trajectories != 3 || s.Turns.UpTo3 != 2 || s.Turns.From4 != 1 || s.Judged != 0 || s.PassRate != nil {
		t.Errorf("stats %+v", s)
	}
	if len(s.Categories) != 2 || s.Categories[0].Category != "" || s.Categories[1].Category != "math" || s.Categories[1].Trajectories != 1 {
		t.Errorf("categories %+v", s.Categories)
	}
	if s.TotalTokens < 6 {
		t.Errorf("tokens %d: the content parts were not counted", s.TotalTokens)
	}
}

func TestReadStatsForeignParquet(t *testing.T) {
	duckdbtest.Need(t)
	dir := t.TempDir()
	sharegpt := filepath.Join(dir, "codeact.parquet")
	pyinstruct := filepath.Join(dir, "pyinstruct.parquet")
	duckdbtest.Query(t, `COPY (SELECT 'x' || i AS id, [{'from': 'human', 'value': 'hi ' || i}, {'from': 'gpt', 'value': 'ok'}] AS conversations, 3.5 AS score FROM range(5) t(i)) TO `+duckdbtest.Quote(sharegpt)+` (FORMAT parquet)`)
	duckdbtest.Query(t, `COPY (SELECT [{'role': 'user', 'content': 'q'}, {'role': 'assistant', 'content': 'a'}, {'role': 'user', 'content': 'o'}, {'role': 'assistant', 'content': 'Finished: b'}] AS messages, NULL::VARCHAR AS tools, 'auto' AS tool_choices FROM range(4)) TO `+duckdbtest.Quote(pyinstruct)+` (FORMAT parquet)`)
	for _, tc := range []struct {
		path  string
		n     int64
		turns float64
	}{{sharegpt, 5, 1}, {pyinstruct, 4, 2}} {
		rep, err := ReadStats(tc.path, TokensSourceOffline)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stats.Trajectories != tc.n || rep.Stats.AvgTurns != tc.turns || rep.Stats.TotalTokens == 0 {
			t.Errorf("%s: %+v", filepath.Base(tc.path), rep.Stats.Tally)
		}
	}
	notChat := filepath.Join(dir, "numbers.parquet")
	duckdbtest.Query(t, `COPY (SELECT 1 AS x) TO `+duckdbtest.Quote(notChat)+` (FORMAT parquet)`)
	if _, err := ReadStats(notChat, ""); err == nil {
		t.Error("a Parquet file without messages: no error")
	}
}
