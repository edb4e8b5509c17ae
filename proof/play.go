package proof

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// Played is a solution played in a sandbox of its own.
type Played struct {
	// Case is what the checks judge: the task's checks, the solution's
	// answer as its final message, the inputs under data/ and the files it
	// wrote under output/. Its Observations are not set.
	Case checks.Case
	// Printed is what each step printed, one entry per step.
	Printed []string
	// Failed names the first step that did not run cleanly, with the end
	// of its output; empty when every step ran.
	Failed string
}

// Output is everything the solution printed, its steps' outputs one after
// the other.
func (p Played) Output() string { return strings.Join(p.Printed, "\n") }

// Play runs sol's steps in a fresh sandbox from b holding inputs, collects
// what they wrote under output/ into store (content-addressed, as
// sandbox.CollectArtifacts stores it) and closes the sandbox. A step that
// raised or timed out is Failed, not an error; the error is for a sandbox
// that could not run, a collection that failed, or ctx.
func Play(ctx context.Context, b sandbox.Backend, t *schemas.Task, sol *schemas.Reference, inputs []sandbox.Input, store string) (Played, error) {
	var p Played
	sb, err := b.Open(ctx, sandbox.Spec{Inputs: inputs})
	if err != nil {
		return p, fmt.Errorf("open sandbox: %w", err)
	}
	defer sb.Close()
	if err := runSteps(ctx, sb, sol, &p); err != nil {
		return p, err
	}
	arts, err := sandbox.CollectArtifacts(sb.Workspace(), store)
	if err != nil {
		return p, err
	}
	sb.Close()
	var outs []sandbox.Input
	for _, a := range arts {
		outs = append(outs, sandbox.Input{Name: a.Path, Path: filepath.Join(store, a.SHA256[:2], a.SHA256)})
	}
	p.Case = playedCase(t, sol, inputs, outs)
	return p, nil
}

// CaseInputs are a task's inputs as a verification case's files, under
// data/.
func CaseInputs(inputs []sandbox.Input) []sandbox.Input {
	out := make([]sandbox.Input, 0, len(inputs))
	for _, in := range inputs {
		out = append(out, sandbox.Input{Name: "data/" + in.Name, Path: in.Path, Root: in.Root})
	}
	return out
}

// LastLines is the last n lines of s, for a message about a failed step.
func LastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// Backend is the sandbox backend a proof runs in, given once by the
// caller; the generators name it here rather than import the sandbox.
type Backend = sandbox.Backend

// Input is one of a task's files as a sandbox holds it.
type Input = sandbox.Input
