// Package checkstest starts the real sandbox the way verification runs it,
// for tests: the locked Python environment built, the checks library
// resident (as synth build and synth eval give it).
package checkstest

import (
	"context"
	"path"
	"sync/atomic"
	"testing"

	"synth/checks"
	"synth/pyenv/pyenvtest"
	"synth/sandbox"
	"synth/schemas"
)

// Backend is a sandbox backend with slots slots (0: the default) and the
// checks library and the figure recorder resident, closed when t ends. t stops first when the
// locked environment is not built (pyenvtest.Python).
func Backend(t testing.TB, slots int) sandbox.Backend {
	t.Helper()
	pyenvtest.Python(t)
	b, err := sandbox.New(sandbox.Config{Slots: slots, Residents: []sandbox.Resident{checks.Resident(), checks.FigureRecorder()}})
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// DieOn is a file name a rollout may leave under output/ in a test: the
// verification cell of CrashingChecks dies on it, as a cell dies that a
// rollout's files exhaust or kill.
const DieOn = "checks-die-on-this.txt"

// CrashingChecks wraps b: a sandbox opened with an input named DieOn (a
// verification sandbox handed the rollout's files) runs every cell to a
// crash with no output, as when the checks die on what the rollout left.
// Every other sandbox is b's. What synth then makes of the crash is the
// rollout's failure, check_crash, never the infrastructure's.
func CrashingChecks(b sandbox.Backend) *Crashing { return &Crashing{Backend: b} }

// Crashing is the backend of CrashingChecks.
type Crashing struct {
	sandbox.Backend
	opened atomic.Int64
}

// Opened is how many sandboxes were opened on a DieOn file: one per
// verification of such a rollout.
func (c *Crashing) Opened() int { return int(c.opened.Load()) }

func (c *Crashing) Open(ctx context.Context, spec sandbox.Spec) (sandbox.Sandbox, error) {
	sb, err := c.Backend.Open(ctx, spec)
	if err != nil {
		return sb, err
	}
	for _, in := range spec.Inputs {
		if path.Base(in.Name) == DieOn {
			c.opened.Add(1)
			return deadCells{sb}, nil
		}
	}
	return sb, nil
}

type deadCells struct{ sandbox.Sandbox }

func (deadCells) Exec(context.Context, string) (sandbox.Result, error) {
	return sandbox.Result{Status: schemas.StatusCrash, Output: "[crash: the interpreter died]\n"}, nil
}
