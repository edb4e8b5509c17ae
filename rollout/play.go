package rollout

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

// DefaultGrace is how long rollouts in flight may run on after an interrupt.
const DefaultGrace = 30 * time.Second

// InFlight is how many rollouts run at once: the configured number, else one
// per configured sandbox slot, else 16 for a teacher at an endpoint (its
// rollouts mostly wait on it), else one per CPU.
func InFlight(configured int, teacherKind string, slots int) int {
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

// BackendConfig is the sandbox section as a run's backend is built from it:
// one slot per rollout in flight unless slots are configured (a rollout
// holds its sandbox while the teacher thinks), and the resident modules.
func BackendConfig(cfg sandbox.Config, inFlight int) sandbox.Config {
	if cfg.Slots == 0 {
		cfg.Slots = inFlight
	}
	cfg.Residents = Residents()
	return cfg
}

// Residents are the modules a run's sandboxes hold resident: the checks
// library, which verifies every rollout, and the figure recorder, whose
// records of saved charts the chart checks read.
func Residents() []sandbox.Resident {
	return []sandbox.Resident{checks.Resident(), checks.FigureRecorder()}
}

// CollectLimits are sandbox.artifacts; the config was validated on load.
func CollectLimits(c sandbox.Config) sandbox.CollectLimits {
	l, _ := c.ParsedCollectLimits()
	return l
}

// Player plays rollouts: the sandboxes, the artifact store, and the loop's
// settings.
type Player struct {
	Backend   sandbox.Backend
	Artifacts string       // the content-addressed store for files rollouts write under output/
	Teacher   agent.Config // system prompts, observation cap, nudge
	MaxTurns  int
	// PyBench plays and verifies as PyBench's harness: no nudge, no cap on
	// observations but the sandbox's, and the checks run however the
	// rollout stopped.
	PyBench bool
	Limits  sandbox.CollectLimits
}

// pybenchObservation is the observation cap of the pybench mode: PyBench
// cuts nothing, so only the sandbox's output limit applies.
const pybenchObservation = 1 << 30

// Play runs jb in a fresh sandbox holding inputs, collects what it wrote
// under output/, and verifies it with the task's checks. A sandbox that
// would not start is a trajectory with that stop reason and failure, not an
// error, and so is a rollout whose output/ could not be collected; the
// error is runner.ErrAbandoned when ctx ended the rollout.
func (p Player) Play(ctx context.Context, jb Job, inputs []sandbox.Input) (*schemas.Trajectory, error) {
	t, err := p.Perform(ctx, jb, inputs)
	if err != nil || t.Verdict != nil {
		return t, err
	}
	verify := filters.Verify
	if p.PyBench {
		verify = filters.VerifyAsPyBench
	}
	v, err := verify(ctx, p.Backend, jb.Task, t, inputs, p.Artifacts)
	if ctx.Err() != nil {
		return nil, runner.ErrAbandoned
	}
	if err != nil {
		// sandbox_crash is an infrastructure failure that is retried.
		filters.Unverified(t, err)
		return t, nil
	}
	t.Verdict = &v
	return t, nil
}

// Perform is Play without the verification: it runs jb in a fresh sandbox
// holding inputs, collects what it wrote under output/ into the artifact
// store and closes the sandbox. The trajectory's Verdict is nil when it is
// ready to verify, and already set when the sandbox would not start or
// output/ could not be collected. The error is runner.ErrAbandoned when ctx
// ended the rollout.
func (p Player) Perform(ctx context.Context, jb Job, inputs []sandbox.Input) (*schemas.Trajectory, error) {
	// The sandbox opens while the teacher writes its first reply.
	sb := sandbox.OpenAsync(ctx, p.Backend, sandbox.Spec{Inputs: inputs, Seed: Seed(jb.ID)})
	defer sb.Close()
	opts := agent.Options{
		ID: jb.ID, Sample: jb.Sample, System: p.Teacher.SystemPromptFor(jb.ID),
		MaxTurns: p.MaxTurns, MaxObservation: p.Teacher.MaxObservation, Nudge: p.Teacher.Nudge,
	}
	if p.PyBench {
		opts.Nudge, opts.MaxObservation = "-", pybenchObservation
	}
	t, err := agent.Run(ctx, jb.Teacher, jb.Format, sb, jb.Task, opts)
	if err != nil {
		return nil, runner.ErrAbandoned // Run fails only when ctx is done
	}
	if err := sb.Err(); err != nil {
		if ctx.Err() != nil {
			return nil, runner.ErrAbandoned
		}
		return Unplayed(jb, schemas.StopSandboxError, schemas.FailSandboxCrash, err), nil
	}
	// Every process of sb stops, then what the rollout left under output/
	// goes into the artifact store: a collection failure is the rollout's
	// verdict, and the run goes on.
	filters.Collect(sb, t, p.Artifacts, p.Limits)
	return t, nil // the verdict is computed from the collected artifacts alone
}

// Unplayed is the record of a rollout that could not run.
func Unplayed(jb Job, reason, failure string, err error) *schemas.Trajectory {
	return &schemas.Trajectory{
		ID: jb.ID, TaskID: jb.Task.ID, Sample: jb.Sample, Teacher: jb.Teacher.Info(),
		StopReason: reason, Error: err.Error(), Messages: []schemas.Message{}, Steps: []schemas.Step{},
		Verdict: &schemas.Verdict{Failure: failure, Checks: []schemas.CheckResult{}},
	}
}
