package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"synth/agent"
	"synth/filters"
	"synth/sandbox"
	"synth/schemas"
)

// job is one rollout to run: a task, a sample number and a teacher.
type job struct {
	id      string
	task    *schemas.Task
	sample  int
	teacher agent.Teacher
	format  agent.Format
}

// trajectoryID is a hash of everything that shapes a rollout, so a rerun of
// the same config finds it done.
func trajectoryID(task *schemas.Task, sample int, t agent.Teacher, f agent.Format, cfg agent.Config) string {
	info := t.Info()
	h := sha256.New()
	// Not the endpoint: replicas of one model give the same rollouts.
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00%s\x00%s\x00%d\x00%d\x00%s\x00%s\x00%s\x00%d\x00%s",
		task.ID, sample, info.Kind, info.Model, f.Name(), cfg.MaxTurns, cfg.MaxObservation, strings.Join(cfg.SystemPrompts, "\x00"),
		floatKey(cfg.Temperature), floatKey(cfg.TopP), cfg.MaxReplyTokens, cfg.Nudge)
	return hex.EncodeToString(h.Sum(nil))[:24]
}

func floatKey(f *float64) string {
	if f == nil {
		return "-"
	}
	return fmt.Sprint(*f)
}

func seedOf(id string) int64 {
	h := sha256.Sum256([]byte(id))
	return int64(binary.BigEndian.Uint64(h[:8]) >> 1)
}

// runJobs rolls out every job not yet in the journal, verifies each, and
// appends it to the journal. It returns every job's trajectory (earlier and
// new) by id, and how many it ran now. Interrupted, it lets rollouts in
// flight finish, journals them, and returns ctx's error.
func (r *run) runJobs(ctx context.Context, stage string, jobs []job, journal string, fs *fileSet) (map[string]*schemas.Trajectory, int, error) {
	path := filepath.Join(r.dir, journal)
	done := map[string]*schemas.Trajectory{}
	err := ReadJournal(path, func(t schemas.Trajectory) error { done[t.ID] = &t; return nil })
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", stage, err)
	}
	var pending []job
	for _, jb := range jobs {
		if _, ok := done[jb.id]; !ok {
			pending = append(pending, jb)
		}
	}
	if len(pending) == 0 {
		return done, 0, nil
	}
	j, err := OpenJournal(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", stage, err)
	}
	prog := newProgress(r.log, r.opts.Terminal, stage, len(jobs), len(jobs)-len(pending))
	results := make(chan *schemas.Trajectory)
	writeErr := make(chan error, 1)
	go func() { // the journal's only writer
		var err error
		for t := range results {
			if err == nil {
				err = j.Append(t)
			}
			done[t.ID] = t
			prog.finished(t)
		}
		if cerr := j.Close(); err == nil {
			err = cerr
		}
		writeErr <- err
	}()

	// After an interrupt no rollout starts; those in flight get a grace
	// period to finish and are then abandoned, unrecorded, for the next run.
	work, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	go func() {
		select {
		case <-ctx.Done():
			fmt.Fprintf(r.log, "%s: letting the rollouts in flight finish (up to %s)\n", stage, r.grace())
			t := time.NewTimer(r.grace())
			defer t.Stop()
			select {
			case <-t.C:
				cancelWork()
			case <-work.Done():
			}
		case <-work.Done():
		}
	}()
	g := new(errgroup.Group)
	g.SetLimit(r.concurrency())
	var halt atomic.Pointer[error]
	stopping := func() bool { return ctx.Err() != nil || halt.Load() != nil }
	for _, jb := range pending {
		if stopping() {
			break
		}
		g.Go(func() error {
			if stopping() {
				return nil
			}
			t, err := r.rollout(work, jb, fs)
			if errors.Is(err, errAbandoned) {
				return nil
			}
			if err != nil {
				return err
			}
			if herr := r.halted(); herr != nil {
				halt.CompareAndSwap(nil, &herr)
				if t.StopReason == schemas.StopBudget || t.StopReason == schemas.StopTeacherError {
					return nil // not the task's fault: the next run does it again
				}
			}
			results <- t
			return nil
		})
	}
	gerr := g.Wait()
	cancelWork()
	close(results)
	werr := <-writeErr
	prog.close()
	ran := len(done) - (len(jobs) - len(pending))
	switch {
	case gerr != nil:
		return nil, ran, fmt.Errorf("%s: %w", stage, gerr)
	case werr != nil:
		return nil, ran, fmt.Errorf("%s: %w", stage, werr)
	case halt.Load() != nil:
		return nil, ran, fmt.Errorf("%s: %w after %d of %d rollouts: %w", stage, errHalted, len(jobs)-countMissing(jobs, done), len(jobs), *halt.Load())
	case ctx.Err() != nil:
		return nil, ran, fmt.Errorf("%s: interrupted after %d of %d rollouts (all finished ones are kept; run the same command again to continue): %w",
			stage, len(jobs)-countMissing(jobs, done), len(jobs), ctx.Err())
	}
	return done, ran, nil
}

func countMissing(jobs []job, done map[string]*schemas.Trajectory) int {
	n := 0
	for _, jb := range jobs {
		if _, ok := done[jb.id]; !ok {
			n++
		}
	}
	return n
}

// errAbandoned is a rollout cut short by the end of the grace period; it is
// not recorded, so the next run does it again.
var errAbandoned = errors.New("rollout abandoned at shutdown")

// grace is how long rollouts in flight may run on after an interrupt.
func (r *run) grace() time.Duration {
	if r.opts.Grace > 0 {
		return r.opts.Grace
	}
	return 30 * time.Second
}

func (r *run) concurrency() int {
	if r.cfg.Concurrency > 0 {
		return r.cfg.Concurrency
	}
	if r.cfg.Teacher.Kind == "openai" {
		return 16 // rollouts mostly wait on the endpoint
	}
	if r.cfg.Sandbox.Slots > 0 {
		return r.cfg.Sandbox.Slots
	}
	return 2
}

// rollout runs one job in a fresh sandbox, collects its artifacts and
// verifies it. Infrastructure failures (a sandbox that would not start, a
// teacher that errs) are retried filters.infra_retries times and then
// recorded with their failure word; they are never task failures, and the
// filters drop them. The error return is for failures of synth itself (the
// artifact store).
func (r *run) rollout(ctx context.Context, jb job, fs *fileSet) (*schemas.Trajectory, error) {
	for attempt := 1; ; attempt++ {
		t, err := r.rolloutOnce(ctx, jb, fs)
		if err != nil || r.halted() != nil || !r.cfg.Filters.ShouldRetry(t.Verdict.Failure, attempt) {
			return t, err
		}
	}
}

func (r *run) rolloutOnce(ctx context.Context, jb job, fs *fileSet) (*schemas.Trajectory, error) {
	infra := func(reason, failure string, err error) *schemas.Trajectory {
		return &schemas.Trajectory{
			ID: jb.id, TaskID: jb.task.ID, Sample: jb.sample, Teacher: jb.teacher.Info(),
			StopReason: reason, Error: err.Error(), Messages: []schemas.Message{}, Steps: []schemas.Step{},
			Verdict: &schemas.Verdict{Failure: failure, Checks: []schemas.CheckResult{}},
		}
	}
	sb, err := r.backend.Open(ctx, sandbox.Spec{Inputs: fs.inputs(jb.task), Seed: seedOf(jb.id)})
	if ctx.Err() != nil {
		return nil, errAbandoned
	}
	if err != nil {
		return infra(schemas.StopSandboxError, schemas.FailSandboxCrash, fmt.Errorf("open sandbox: %w", err)), nil
	}
	defer sb.Close()
	opts := agent.Options{
		ID: jb.id, Sample: jb.sample, System: systemPrompt(r.cfg.Teacher, jb.id),
		MaxTurns: r.cfg.Teacher.MaxTurns, MaxObservation: r.cfg.Teacher.MaxObservation,
	}
	t, err := agent.Run(ctx, jb.teacher, jb.format, sb, jb.task, opts)
	if err != nil {
		return nil, errAbandoned // Run fails only when ctx is done
	}
	t.Artifacts, err = sandbox.CollectArtifacts(sb.Workspace(), filepath.Join(r.dir, artifactsDir))
	if err != nil {
		return nil, fmt.Errorf("rollout %s: artifacts: %w", jb.id, err)
	}
	v, err := filters.Verify(ctx, r.backend, jb.task, t, sb.Workspace())
	if ctx.Err() != nil {
		return nil, errAbandoned
	}
	if err != nil {
		v = schemas.Verdict{Failure: schemas.FailSandboxCrash, Checks: []schemas.CheckResult{}}
		t.Error = strings.TrimPrefix(t.Error+"; verify: "+err.Error(), "; ")
	}
	t.Verdict = &v
	return t, nil
}

// systemPrompt picks a rollout's system prompt: one of the configured
// paraphrases by the rollout's id, or "" for the format's default.
func systemPrompt(cfg agent.Config, id string) string { return cfg.SystemPromptFor(id) }
