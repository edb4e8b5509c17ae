package rollout

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"synth/agent"
	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

func TestInFlight(t *testing.T) {
	cpus := max(2, runtime.NumCPU())
	tests := []struct {
		name        string
		configured  int
		kind        string
		slots, want int
	}{
		{"configured wins", 5, "openai", 3, 5},
		{"sandbox slots next", 0, "openai", 3, 3},
		{"a teacher at an endpoint waits on it", 0, "openai", 0, 16},
		{"an offline teacher is bound by the CPUs", 0, "reference", 0, cpus},
	}
	for _, tc := range tests {
		if got := InFlight(tc.configured, tc.kind, tc.slots); got != tc.want {
			t.Errorf("%s: InFlight(%d, %q, %d) = %d, want %d", tc.name, tc.configured, tc.kind, tc.slots, got, tc.want)
		}
	}
	if got := BackendConfig(sandbox.Config{}, 16).Slots; got != 16 {
		t.Errorf("unset slots become %d, want one per rollout in flight (16)", got)
	}
	if got := BackendConfig(sandbox.Config{Slots: 4}, 16).Slots; got != 4 {
		t.Errorf("configured slots become %d, want 4", got)
	}
	if got := BackendConfig(sandbox.Config{}, 1).Residents; len(got) != 2 || got[0] != checks.Resident() || got[1] != checks.FigureRecorder() {
		t.Errorf("residents %v, want the checks library and the figure recorder", got)
	}
}

// failingBackend opens no sandbox.
type failingBackend struct{ opens int }

func (b *failingBackend) Open(context.Context, sandbox.Spec) (sandbox.Sandbox, error) {
	b.opens++
	return nil, errors.New("the zygote is gone")
}
func (b *failingBackend) Close() error { return nil }

// TestPlayWithoutASandbox: a sandbox that would not open, opened while the
// teacher writes its first reply, still makes a sandbox_crash record (an
// infrastructure failure, retried), not a task failure.
func TestPlayWithoutASandbox(t *testing.T) {
	b := &failingBackend{}
	ref := agent.NewReference(agent.NewPyBench())
	task := &schemas.Task{ID: "t", Query: "q", Reference: &schemas.Reference{Steps: []schemas.RefStep{{Code: "print(1)"}}, Answer: "1"}}
	p := Player{Backend: b, Artifacts: t.TempDir(), MaxTurns: 5}
	tr, err := p.Play(context.Background(), Job{ID: "j", Task: task, Teacher: ref, Format: agent.NewPyBench()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.opens != 1 || tr.StopReason != schemas.StopSandboxError || tr.Verdict == nil || tr.Verdict.Failure != schemas.FailSandboxCrash ||
		!strings.Contains(tr.Error, "open sandbox: the zygote is gone") {
		t.Fatalf("record %+v (verdict %+v), want sandbox_error / sandbox_crash naming the open", tr, tr.Verdict)
	}
}
