package filters

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"synth/checks/checkstest"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

func TestVerifyFailures(t *testing.T) {
	b, ws := testBackend(t)
	store := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "output", "1.csv"), []byte("a,b\n1,2\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	task := &schemas.Task{ID: "t1", Checks: []schemas.Check{
		{Kind: "table", Path: "output/1.csv", NoDuplicates: true},
		{Kind: "answer", ContainsAll: []string{"done"}},
	}}
	cases := []struct {
		name    string
		stop    string
		steps   []schemas.Step
		answer  string
		passed  bool
		failure string
		checks  int
	}{
		{"finished, a check fails", schemas.StopFinished, nil, "done", false, schemas.FailCheck, 2},
		{"max turns", schemas.StopMaxTurns, nil, "", false, schemas.FailMaxTurns, 0},
		{"no code", schemas.StopNoCode, nil, "", false, schemas.FailFormat, 0},
		{"teacher error", schemas.StopTeacherError, nil, "", false, schemas.FailTeacherError, 0},
		{"budget", schemas.StopBudget, nil, "", false, schemas.FailBudget, 0},
		{"reply too long", schemas.StopReplyTooLong, nil, "", false, schemas.FailReplyTooLong, 0},
		{"truncated", schemas.StopTruncated, []schemas.Step{{Status: schemas.StatusOK}}, "", false, schemas.FailTruncated, 0},
		{"sandbox crash", schemas.StopSandboxError, []schemas.Step{{Status: schemas.StatusCrash}}, "", false, schemas.FailSandboxCrash, 0},
		{"sandbox timeout", schemas.StopSandboxError, []schemas.Step{{Status: schemas.StatusTimeout}}, "", false, schemas.FailExecTimeout, 0},
		{"no stop reason", "", nil, "", false, schemas.FailNoFinalAnswer, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			traj := &schemas.Trajectory{ID: "r1", TaskID: "t1", StopReason: tc.stop, Steps: tc.steps, FinalAnswer: tc.answer, Artifacts: collect(t, ws, store)}
			v, err := Verify(context.Background(), b, task, traj, nil, store)
			if err != nil {
				t.Fatal(err)
			}
			if v.Passed != tc.passed || v.Failure != tc.failure || len(v.Checks) != tc.checks {
				t.Fatalf("got %+v", v)
			}
			if tc.checks == 2 && (!strings.Contains(v.Checks[0].Message, "1 duplicate rows") || !v.Checks[1].OK) {
				t.Fatalf("checks %+v", v.Checks)
			}
		})
	}

	if err := os.WriteFile(filepath.Join(ws, "output", "1.csv"), []byte("a,b\n1,2\n3,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	traj := &schemas.Trajectory{ID: "r2", StopReason: schemas.StopFinished, FinalAnswer: "Finished: done", Artifacts: collect(t, ws, store)}
	v, err := Verify(context.Background(), b, task, traj, nil, store)
	if err != nil || !v.Passed || v.Failure != "" {
		t.Fatalf("got %+v, %v", v, err)
	}
}

// testBackend gives the real sandbox backend and a workspace with data/
// and output/; the test skips where no backend can start.
func testBackend(t *testing.T) (sandbox.Backend, string) {
	t.Helper()
	b := checkstest.Backend(t, 0)
	ws := t.TempDir()
	for _, d := range []string{"data", "output"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return b, ws
}

// collect stores ws/output's files in store, as a rollout's artifacts.
func collect(t *testing.T, ws, store string) []schemas.Artifact {
	t.Helper()
	arts, err := sandbox.CollectArtifacts(ws, store)
	if err != nil {
		t.Fatal(err)
	}
	return arts
}

// TestVerifyHoldsTheAnswerToTheRun: a finished rollout whose code printed
// 10 and whose answer says 4 fails synth's verification with the reason,
// whoever the teacher; the same rollout printing 4 passes. PyBench's
// scoring judges the answer alone, as its tests.py does.
func TestVerifyHoldsTheAnswerToTheRun(t *testing.T) {
	b, _ := testBackend(t)
	task := &schemas.Task{ID: "t1", Checks: []schemas.Check{{Kind: "answer", Number: &schemas.NumberMatch{Value: 4}}}}
	run := func(printed string) *schemas.Trajectory {
		return &schemas.Trajectory{ID: "r", TaskID: "t1", Teacher: schemas.TeacherInfo{Kind: "openai"}, StopReason: schemas.StopFinished,
			Steps:       []schemas.Step{{Code: "print(text.count('the'))", Observation: printed + "\n", Status: schemas.StatusOK}},
			FinalAnswer: "Finished: The word occurs 4 times."}
	}
	v, err := Verify(context.Background(), b, task, run("10"), nil, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if v.Passed || v.Failure != schemas.FailCheck || !strings.Contains(v.Checks[0].Message, "never showed") {
		t.Fatalf("printed 10, answered 4: %+v", v)
	}
	if v, err = Verify(context.Background(), b, task, run("4"), nil, t.TempDir()); err != nil || !v.Passed {
		t.Fatalf("printed 4, answered 4: %+v, %v", v, err)
	}
	if v, err = VerifyAsPyBench(context.Background(), b, task, run("10"), nil, t.TempDir()); err != nil || !v.Passed {
		t.Fatalf("PyBench scoring held the answer to the run: %+v, %v", v, err)
	}
}
