package pipeline

import (
	"context"
	"runtime"
	"time"

	"synth/agent"
	"synth/checks"
	"synth/filters"
	"synth/runner"
	"synth/sandbox"
	"synth/schemas"
)

// What build and eval share to run one rollout.

// errAbandoned is a rollout cut short by the end of the grace period; it is
// not recorded, so the next run does it again.
var errAbandoned = runner.ErrAbandoned

// defaultGrace is how long rollouts in flight may run on after an interrupt.
const defaultGrace = 30 * time.Second

// inFlight is how many rollouts run at once: the configured number, else one
// per configured sandbox slot, else 16 for a teacher at an endpoint (its
// rollouts mostly wait on it), else one per CPU.
func inFlight(configured int, teacherKind string, slots int) int {
	switch {
	case configured > 0:
		return configured
	case slots > 0:
		return slots
	case teacherKind == "openai":
		return 16
	}
	return max(2, runtime.NumCPU())
}

// backendConfig is the sandbox section as the run's backend is built from
// it: one slot per rollout in flight unless slots are configured (a rollout
// holds its sandbox while the teacher thinks), and the resident modules.
func backendConfig(cfg sandbox.Config, inFlight int) sandbox.Config {
	if cfg.Slots == 0 {
		cfg.Slots = inFlight
	}
	cfg.Residents = residents()
	return cfg
}

// residents are the modules a run's sandboxes hold resident: the checks
// library, which verifies every rollout.
func residents() []sandbox.Resident { return []sandbox.Resident{checks.Resident()} }

// player runs rollouts: the sandboxes, the artifact store, and the loop's
// settings.
type player struct {
	backend   sandbox.Backend
	artifacts string       // the content-addressed store for files rollouts write under output/
	teacher   agent.Config // system prompts, observation cap, nudge
	maxTurns  int
	// pybench plays and verifies as PyBench's harness: no nudge, no cap on
	// observations but the sandbox's, and the checks run however the
	// rollout stopped.
	pybench bool
	limits  sandbox.CollectLimits
}

// pybenchObservation is the observation cap of the pybench mode: PyBench
// cuts nothing, so only the sandbox's output limit applies.
const pybenchObservation = 1 << 30

// play runs jb in a fresh sandbox holding inputs, collects what it wrote
// under output/, and verifies it with the task's checks. A sandbox that
// would not start is a trajectory with that stop reason and failure, not an
// error, and so is a rollout whose output/ could not be collected; the
// error is errAbandoned when ctx ended the rollout.
func (p player) play(ctx context.Context, jb job, inputs []sandbox.Input) (*schemas.Trajectory, error) {
	t, err := p.perform(ctx, jb, inputs)
	if err != nil || t.Verdict != nil {
		return t, err
	}
	verify := filters.Verify
	if p.pybench {
		verify = filters.VerifyAsPyBench
	}
	v, err := verify(ctx, p.backend, jb.task, t, inputs, p.artifacts)
	if ctx.Err() != nil {
		return nil, errAbandoned
	}
	if err != nil {
		unverified(t, err)
		return t, nil
	}
	t.Verdict = &v
	return t, nil
}

// unverified gives t the verdict of a verification that err stopped
// (filters.Unverified); sandbox_crash is an infrastructure failure that is
// retried.
func unverified(t *schemas.Trajectory, err error) { filters.Unverified(t, err) }

// perform is play without the verification: it runs jb in a fresh sandbox
// holding inputs, collects what it wrote under output/ into the artifact
// store and closes the sandbox. The trajectory's Verdict is nil when it is
// ready to verify, and already set when the sandbox would not start or
// output/ could not be collected. The error is errAbandoned when ctx ended
// the rollout.
func (p player) perform(ctx context.Context, jb job, inputs []sandbox.Input) (*schemas.Trajectory, error) {
	// The sandbox opens while the teacher writes its first reply.
	sb := sandbox.OpenAsync(ctx, p.backend, sandbox.Spec{Inputs: inputs, Seed: seedOf(jb.id)})
	defer sb.Close()
	opts := agent.Options{
		ID: jb.id, Sample: jb.sample, System: p.teacher.SystemPromptFor(jb.id),
		MaxTurns: p.maxTurns, MaxObservation: p.teacher.MaxObservation, Nudge: p.teacher.Nudge,
	}
	if p.pybench {
		opts.Nudge, opts.MaxObservation = "-", pybenchObservation
	}
	t, err := agent.Run(ctx, jb.teacher, jb.format, sb, jb.task, opts)
	if err != nil {
		return nil, errAbandoned // Run fails only when ctx is done
	}
	if err := sb.Err(); err != nil {
		if ctx.Err() != nil {
			return nil, errAbandoned
		}
		return unplayed(jb, schemas.StopSandboxError, schemas.FailSandboxCrash, err), nil
	}
	p.collect(sb, t)
	return t, nil // the verdict is computed from the collected artifacts alone
}

// unplayed is the record of a rollout that could not run.
func unplayed(jb job, reason, failure string, err error) *schemas.Trajectory {
	return &schemas.Trajectory{
		ID: jb.id, TaskID: jb.task.ID, Sample: jb.sample, Teacher: jb.teacher.Info(),
		StopReason: reason, Error: err.Error(), Messages: []schemas.Message{}, Steps: []schemas.Step{},
		Verdict: &schemas.Verdict{Failure: failure, Checks: []schemas.CheckResult{}},
	}
}

// collect stops every process of sb, then copies what the rollout left under
// output/ into the artifact store (filters.Collect): a collection failure is
// the rollout's verdict, and the run goes on.
func (p player) collect(sb sandbox.Sandbox, t *schemas.Trajectory) {
	filters.Collect(sb, t, p.artifacts, p.limits)
}

// collectLimits are sandbox.artifacts; the config was validated on load.
func collectLimits(c sandbox.Config) sandbox.CollectLimits {
	l, _ := c.ParsedCollectLimits()
	return l
}
