package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"synth/agent"
	"synth/config"
	"synth/rollout"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

// WriteBenchRun makes dir a run directory whose plan is generated rather
// than built, for measuring the stages whose cost grows with the task
// count: n training tasks of distinct random queries over n/100 files, as
// if collected and generated (files.jsonl, tasks.jsonl, run.json with both
// stages done), and one finished reference rollout per task in
// trajectories.jsonl (every tenth one failing its checks), as if rolled
// out. No benchmark is split off (bench.fraction 0). `synth build -o dir`
// then plans, finds every rollout journaled, filters and emits without a
// sandbox or a teacher. The same n and seed give the same files.
func WriteBenchRun(dir string, n int, seed int64) error {
	if n < 1 {
		return fmt.Errorf("bench run: want at least one task, not %d", n)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("bench run: %w", err)
	}
	cfg := config.Default()
	cfg.Bench.Fraction = 0
	format := agent.NewPyBench()
	teacher := agent.NewReference(format)
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))

	files := make([]schemas.File, max(1, n/100))
	fj, err := rundir.OpenJournal(filepath.Join(dir, rundir.Files))
	if err != nil {
		return fmt.Errorf("bench run: %w", err)
	}
	for i := range files {
		sum := sha256.Sum256(fmt.Appendf(nil, "bench file %d", i))
		files[i] = schemas.File{ID: hex.EncodeToString(sum[:]), Name: fmt.Sprintf("table%d.csv", i), Type: "csv", Size: 4096,
			Source: schemas.Source{Kind: "sample", License: "CC0-1.0"}}
		if err := fj.Append(files[i]); err != nil {
			fj.Close()
			return err
		}
	}
	if err := fj.Close(); err != nil {
		return err
	}

	tj, err := rundir.OpenJournal(filepath.Join(dir, rundir.Tasks))
	if err != nil {
		return fmt.Errorf("bench run: %w", err)
	}
	rj, err := rundir.OpenJournal(filepath.Join(dir, rundir.Trajectories))
	if err != nil {
		tj.Close()
		return fmt.Errorf("bench run: %w", err)
	}
	tj.SyncEvery, rj.SyncEvery = 1<<30, 1<<30 // one fsync at the end
	for i := range n {
		f := files[i%len(files)]
		t := benchTask(rng, i, f)
		tr := benchTrajectory(&t, rollout.ID(t.ID, 0, teacher, format, cfg.Teacher), i%10 != 9)
		if err := tj.Append(&t); err != nil {
			break
		}
		if err = rj.Append(tr); err != nil {
			break
		}
	}
	if cerr := tj.Close(); err == nil {
		err = cerr
	}
	if cerr := rj.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("bench run: %w", err)
	}
	now := time.Now().UTC()
	info := &runinfo.RunInfo{ConfigHash: cfg.Hash(), Config: cfg, Started: now,
		Stages: map[string]time.Time{runinfo.StageCollect: now, runinfo.StageGenerate: now}, Counts: map[string]int{}}
	return info.Save(dir)
}

// benchWord is a random six-letter word: random queries share almost no
// shingles, so dedup keeps every task and remembers it.
func benchWord(rng *rand.Rand) string {
	b := make([]byte, 6)
	for i := range b {
		b[i] = byte('a' + rng.IntN(26))
	}
	return string(b)
}

func benchTask(rng *rand.Rand, i int, f schemas.File) schemas.Task {
	ws := make([]string, 24)
	for k := range ws {
		ws[k] = benchWord(rng)
	}
	query := fmt.Sprintf("Load ./data/%s and %s. Save the result to ./output/%d.csv.", f.Name, strings.Join(ws, " "), i)
	code := fmt.Sprintf("import pandas as pd\ndf = pd.read_csv('./data/%s')\nout = df.drop_duplicates()\nout.to_csv('./output/%d.csv', index=False)\nprint(len(out))", f.Name, i)
	return schemas.Task{
		ID: fmt.Sprintf("bench-%07d", i), Category: "data_cleaning", Subcategory: "dedup",
		Files: []schemas.TaskFile{{ID: f.ID, Name: f.Name, Type: f.Type}}, Query: query, Lang: "en",
		Checks:    []schemas.Check{{Kind: schemas.CheckFile, Path: fmt.Sprintf("output/%d.csv", i), MinBytes: 1}},
		Reference: &schemas.Reference{Steps: []schemas.RefStep{{Thought: "Read the table and drop repeated rows.", Code: code}}, Answer: "42"},
		Generator: "template:bench@1", Outputs: []string{fmt.Sprintf("output/%d.csv", i)},
	}
}

// benchSystem is the system prompt of every generated trajectory, about as
// long as PyBench's.
var benchSystem = strings.Repeat("You are a data analyst who writes Python in a Jupyter-like interpreter. ", 12)

func benchTrajectory(t *schemas.Task, id string, passed bool) *schemas.Trajectory {
	code := t.Reference.Steps[0].Code
	obs := "42\n"
	answer := "Finished: I dropped the repeated rows; 42 remain, saved to " + t.Outputs[0] + "."
	tr := &schemas.Trajectory{
		ID: id, TaskID: t.ID, Teacher: schemas.TeacherInfo{Kind: "reference", Format: "pybench"},
		Messages: []schemas.Message{
			{Role: schemas.RoleSystem, Content: benchSystem},
			{Role: schemas.RoleUser, Content: t.Query},
			{Role: schemas.RoleAssistant, Content: "Analyse: " + t.Reference.Steps[0].Thought + "\nThis Step Todo: drop the repeated rows\nCode:\n```python\n" + code + "\n```"},
			{Role: schemas.RoleUser, Content: "Execution result:\n" + obs},
			{Role: schemas.RoleAssistant, Content: answer},
		},
		Steps:       []schemas.Step{{Code: code, Observation: obs, Status: schemas.StatusOK}},
		FinalAnswer: answer, StopReason: schemas.StopFinished,
		Usage:   schemas.Usage{SandboxCPUMS: 40},
		Verdict: &schemas.Verdict{Passed: passed, Checks: []schemas.CheckResult{{Kind: schemas.CheckFile, OK: passed, Message: t.Outputs[0]}}},
	}
	if !passed {
		tr.Verdict.Failure = "check_failed"
	}
	return tr
}
