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
	"synth/rundir"
	"synth/schemas"
)

// job is one rollout to run: a task, a sample number and a teacher. A
// benchmark task's validation job has a proof too: it journals one record
// for its reference (its own id) and one for each proof (see ids).
type job struct {
	id      string
	task    *schemas.Task // nil for a training task held slim, until it runs
	slim    *slimTask     // the training task, when task is nil
	sample  int
	teacher agent.Teacher
	format  agent.Format
	proof   *taskProof
}

// jobList is a stage's jobs by index: a jobSlice, or a trainJobList, which
// makes each training rollout's job when asked rather than hold a million.
type jobList interface {
	Len() int
	At(i int) job
}

type jobSlice []job

func (s jobSlice) Len() int     { return len(s) }
func (s jobSlice) At(i int) job { return s[i] }

// trainJobList is the rollouts of the training tasks, samples each, in the
// order of the dataset's rows: job i is sample i%samples of task
// i/samples.
type trainJobList struct {
	tasks   []slimTask
	samples int
	teacher agent.Teacher
	format  agent.Format
	cfg     *agent.Config
}

func (l trainJobList) Len() int { return len(l.tasks) * l.samples }

func (l trainJobList) At(i int) job {
	t, s := &l.tasks[i/l.samples], i%l.samples
	return job{id: trajectoryID(t.id, s, l.teacher, l.format, *l.cfg), slim: t, sample: s, teacher: l.teacher, format: l.format}
}

// taskID is the id of the job's task.
func (jb *job) taskID() string {
	if jb.task == nil {
		return jb.slim.id
	}
	return jb.task.ID
}

// trajectoryID is a hash of everything that shapes a rollout, so a rerun of
// the same config finds it done.
func trajectoryID(taskID string, sample int, t agent.Teacher, f agent.Format, cfg agent.Config) string {
	info := t.Info()
	h := sha256.New()
	// Not the endpoint: replicas of one model give the same rollouts.
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00%s\x00%s\x00%d\x00%d\x00%s\x00%s\x00%s\x00%d\x00%s",
		taskID, sample, info.Kind, info.Model, f.Name(), cfg.MaxTurns, cfg.MaxObservation, strings.Join(cfg.SystemPrompts, "\x00"),
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
// appends it to the journal. With proofs (benchmark validation), a job is
// done again when one of its records is missing or records an
// infrastructure failure (see redoProofs), and journals those records
// anew. It returns the index of every journaled record (earlier and new;
// the records stay on disk), and how many records it made now. A training
// rollout lost to the infrastructure (the teacher's endpoint failed past
// its retries) is not journaled but noted in lost.jsonl and counted in the
// summary: the next run does it again. Interrupted, it lets rollouts in
// flight finish, journals them, and returns ctx's error.
func (r *run) runJobs(ctx context.Context, stage string, proofs bool, jobs jobList, journal string, fs *fileSet) (*trajIndex, int, error) {
	path := filepath.Join(r.work, journal)
	done, err := indexJournal(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", stage, err)
	}
	r.indexes = append(r.indexes, done)
	var redo map[string]bool
	if proofs {
		if redo, err = redoProofs(jobs, done); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", stage, err)
		}
	}
	// One pass over the jobs (a training job's id is hashed anew each time
	// it is made): the records they journal, those missing, and the jobs
	// to run, by index (4 bytes each, not a job).
	var pending []int32
	records, left := 0, 0
	for i := range jobs.Len() {
		jb := jobs.At(i)
		records += len(jb.ids())
		if m := missing(jb, done, redo); m > 0 {
			left += m
			pending = append(pending, int32(i))
		}
	}
	if len(pending) == 0 {
		return done, 0, nil
	}
	if r.readOnly {
		return nil, 0, fmt.Errorf("%s: %d of %d rollouts are not done in %s: run synth plan -o %s again", stage, left, records, r.work, r.dir)
	}
	if err := r.preflight(ctx); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", stage, err)
	}
	lost, err := openLost(r.work)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", stage, err)
	}
	defer lost.close()
	if n := lost.count(jobs, pending); n > 0 {
		r.logf("%s: redoing %d rollouts lost to infrastructure failures in an earlier run", stage, n)
	}
	if _, err := r.sandbox(); err != nil {
		return nil, 0, err
	}
	j, err := rundir.OpenJournal(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", stage, err)
	}
	prog := newProgress(r.log, r.opts.Terminal, stage, proofs, records, records-left)
	results := make(chan *schemas.Trajectory)
	writeErr := make(chan error, 1)
	var lostNow, ranNow int
	go func() { // the journal's only writer
		var err error
		for t := range results {
			if done.Has(t.ID) && !redo[t.ID] {
				continue // a validation job's record journaled by an earlier run
			}
			prog.finished(t)
			if !proofs && lostToInfra(t) {
				// Not journaled, so the next run does it again.
				lostNow++
				if err == nil {
					err = lost.add(t)
				}
				continue
			}
			ranNow++
			if err == nil {
				off := j.Offset()
				if err = j.Append(t); err == nil {
					done.Add(t.ID, off) // a record done again supersedes the earlier one
					delete(redo, t.ID)
				}
			}
		}
		if cerr := j.Close(); err == nil {
			err = cerr
		}
		writeErr <- err
	}()

	work, cancelWork := graceful(ctx, r.log, stage, r.grace())
	defer cancelWork()
	g := new(errgroup.Group)
	g.SetLimit(r.concurrency())
	var halt atomic.Pointer[error]
	stopping := func() bool { return ctx.Err() != nil || halt.Load() != nil }
	for _, i := range pending {
		if stopping() {
			break
		}
		jb := jobs.At(int(i))
		g.Go(func() error {
			if stopping() {
				return nil
			}
			if jb.task == nil {
				var err error
				if jb.task, err = r.whole(jb.slim); err != nil {
					return err
				}
			}
			ts, err := r.records(work, jb, fs)
			if errors.Is(err, errAbandoned) {
				return nil
			}
			if err != nil {
				return err
			}
			herr := r.halted()
			if herr != nil {
				halt.CompareAndSwap(nil, &herr)
			}
			for _, t := range ts {
				if ctx.Err() != nil && (t.Verdict == nil || !t.Verdict.Passed) {
					// It ended after the interrupt, whose signal may have
					// reached its sandbox too (Slurm's scancel and Kubernetes
					// signal every process of the job): the next run does it
					// again rather than keep a failure that may not be its own.
					continue
				}
				if herr != nil && t.StopReason == schemas.StopBudget {
					continue // not the task's fault: the next run does it again
				}
				results <- t
			}
			return nil
		})
	}
	gerr := g.Wait()
	cancelWork()
	close(results)
	werr := <-writeErr
	prog.close()
	ran := ranNow + lostNow
	r.sum.Lost += lostNow
	switch {
	case gerr != nil:
		return nil, ran, fmt.Errorf("%s: %w", stage, gerr)
	case werr != nil:
		return nil, ran, fmt.Errorf("%s: %w", stage, werr)
	case halt.Load() != nil:
		return nil, ran, fmt.Errorf("%s: %w after %d of %d rollouts (%d cut short and not recorded: the same command redoes them): %w",
			stage, errHalted, records-countMissing(jobs, done, redo), records, lostNow, *halt.Load())
	case ctx.Err() != nil:
		return nil, ran, fmt.Errorf("%s: interrupted after %d of %d rollouts (all finished ones are kept; run the same command again to continue): %w",
			stage, records-countMissing(jobs, done, redo), records, ctx.Err())
	}
	return done, ran, nil
}

// countMissing is how many records of jobs are not journaled, or are to be
// done again (redo).
func countMissing(jobs jobList, done *trajIndex, redo map[string]bool) int {
	n := 0
	for i := range jobs.Len() {
		n += missing(jobs.At(i), done, redo)
	}
	return n
}

// missing is how many of jb's records are not journaled, or are to be done
// again (redo).
func missing(jb job, done *trajIndex, redo map[string]bool) int {
	n := 0
	for _, id := range jb.ids() {
		if !done.Has(id) || redo[id] {
			n++
		}
	}
	return n
}

// grace is how long rollouts in flight may run on after an interrupt.
func (r *run) grace() time.Duration {
	if r.opts.Grace > 0 {
		return r.opts.Grace
	}
	return defaultGrace
}

func (r *run) concurrency() int {
	return inFlight(r.cfg.Concurrency, r.cfg.Teacher.Kind, r.cfg.Sandbox.Slots)
}

// rollout plays one job. Infrastructure failures (a sandbox that would not
// start, a teacher that errs) are retried filters.infra_retries times and
// then recorded with their failure word; they are never task failures, and
// the filters drop them.
func (r *run) rollout(ctx context.Context, jb job, fs *fileSet) (*schemas.Trajectory, error) {
	p := r.player()
	for attempt := 1; ; attempt++ {
		t, err := p.play(ctx, jb, fs.inputs(jb.task))
		// An endpoint's failure was retried request by request already;
		// playing the rollout again at once would re-send what the server
		// may still be computing. The next run redoes it.
		if err != nil || r.halted() != nil || lostToInfra(t) || !r.cfg.Filters.ShouldRetry(t.Verdict.Failure, attempt) {
			return t, err
		}
	}
}

// records plays one job and returns what it journals: its rollout, or a
// validation job's records (proveTask).
func (r *run) records(ctx context.Context, jb job, fs *fileSet) ([]*schemas.Trajectory, error) {
	if jb.proof != nil {
		return r.proveTask(ctx, jb, fs)
	}
	t, err := r.rollout(ctx, jb, fs)
	if err != nil {
		return nil, err
	}
	return []*schemas.Trajectory{t}, nil
}

// player plays the run's rollouts.
func (r *run) player() player {
	return player{backend: r.backend, artifacts: filepath.Join(r.work, rundir.ArtifactsDir), teacher: r.cfg.Teacher,
		maxTurns: r.cfg.Teacher.MaxTurns, limits: collectLimits(r.cfg.Sandbox)}
}
