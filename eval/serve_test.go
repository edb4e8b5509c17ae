package eval

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"synth/agent"
	"synth/bench"
	"synth/rundir"
	"synth/schemas"
	"synth/serve"
	"synth/view"
)

// playServed plays one episode of task on s with policy writing the turns.
func playServed(t *testing.T, s *serve.Server, task *schemas.Task, policy agent.Teacher) serve.Result {
	t.Helper()
	ctx := context.Background()
	_, res, err := s.Reset(ctx, serve.ResetRequest{TaskID: task.ID})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Observation.EpisodeID
	conv := res.Observation.Messages
	for !res.Done {
		reply, err := policy.Reply(ctx, agent.Request{Task: task, Messages: conv})
		if err != nil {
			t.Fatal(err)
		}
		reply.Message.Role = schemas.RoleAssistant
		conv = append(conv, reply.Message)
		if res, err = s.Step(ctx, id, reply.Message); err != nil {
			t.Fatal(err)
		}
		conv = append(conv, res.Observation.Messages...)
	}
	return res
}

// TestServeRecord: synth serve --record journals finished episodes as an
// eval results folder: synth view shows it, Close scores it, and synth eval
// replaying its results.jsonl gives every episode the verdict serve gave.
func TestServeRecord(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "episodes")
	src, isBench, err := ServeBench(evalBench, nil)
	if err != nil || !isBench {
		t.Fatalf("ServeBench: %v (bench %v)", err, isBench)
	}
	rec, err := OpenServeRecord(dir, evalBench, src.Tasks, "test")
	if err != nil {
		t.Fatal(err)
	}
	b := sharedEvalBackend(t)
	s, err := serve.New(src, b, serve.Config{Recorder: rec}, nil)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*schemas.Task{}
	for i := range src.Tasks {
		byID[src.Tasks[i].ID] = &src.Tasks[i]
	}
	ref := agent.NewReference(agent.NewPyBench())
	want := map[string]bool{}
	for _, id := range []string{"t-sort", "t-count"} {
		if r := playServed(t, s, byID[id], ref); *r.Reward != 1 {
			t.Fatalf("reference of %s: %+v", id, r.Observation)
		}
		want[id] = true
	}
	if r := playServed(t, s, byID["t-words"], agent.NewEmpty()); *r.Reward != 0 {
		t.Fatalf("empty: %+v", r.Observation)
	}
	want["t-words"] = false
	// An episode left open is not recorded.
	if _, _, err := s.Reset(context.Background(), serve.ResetRequest{TaskID: "t-math"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.Close(ctx)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	results, err := rundir.ReadAll[bench.Result](filepath.Join(dir, rundir.EvalResults))
	if err != nil || len(results) != 3 {
		t.Fatalf("results.jsonl: %d records, %v", len(results), err)
	}
	for _, r := range results {
		if r.Passed != want[r.TaskID] || r.Traj == nil || r.Traj.Verdict == nil {
			t.Fatalf("recorded %s: passed %v, want %v", r.TaskID, r.Passed, want[r.TaskID])
		}
		for _, a := range r.Traj.Artifacts {
			if _, err := os.Stat(filepath.Join(dir, rundir.ArtifactsDir, a.SHA256[:2], a.SHA256)); err != nil {
				t.Fatalf("artifact %s of %s: %v", a.Path, r.TaskID, err)
			}
		}
		if r.TaskID == "t-sort" && len(r.Traj.Artifacts) == 0 {
			t.Fatal("the sorted table was not collected")
		}
	}
	run, err := bench.LoadRun(dir)
	if err != nil || run.Summary.Rollouts != 3 || run.Summary.Passed != 2 {
		t.Fatalf("summary: %+v %v", run.Summary, err)
	}
	if kind, err := view.Detect(dir); err != nil || kind != view.KindEval {
		t.Fatalf("view.Detect: %q %v", kind, err)
	}
	if _, err := view.Build(context.Background(), view.Options{Inputs: []string{dir}, Out: filepath.Join(t.TempDir(), "site")}); err != nil {
		t.Fatalf("synth view of the record: %v", err)
	}

	// synth eval replaying the record re-executes every turn and agrees.
	res, err := Evaluate(context.Background(), Config{Bench: evalBench, Teacher: agent.Config{Kind: TeacherReplay, Replay: filepath.Join(dir, rundir.EvalResults)}},
		Options{Out: filepath.Join(t.TempDir(), "replayed"), Backend: b})
	if err != nil {
		t.Fatal(err)
	}
	replayed, err := rundir.ReadAll[bench.Result](filepath.Join(res.Out, rundir.EvalResults))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range replayed {
		w, recorded := want[r.TaskID]
		if recorded && r.Passed != w {
			t.Fatalf("eval replaying %s: passed %v, serve said %v", r.TaskID, r.Passed, w)
		}
	}
}
