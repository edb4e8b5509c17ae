package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// ErrAbandoned is the error of a job cut short when the grace period after
// an interrupt ended: none of its results is recorded, so the next run does
// it again.
var ErrAbandoned = errors.New("rollout abandoned at shutdown")

// Jobs is a stage's jobs by index: a Slice, or a list that makes each job
// when asked rather than hold a million at once.
type Jobs[J any] interface {
	Len() int
	At(i int) J
}

// Slice is Jobs held in a slice.
type Slice[J any] []J

func (s Slice[J]) Len() int   { return len(s) }
func (s Slice[J]) At(i int) J { return s[i] }

// Work is what a caller plugs into a Runner: how a job is done and how
// each of its results is recorded.
type Work[J, R any] interface {
	// Do runs one job under ctx and returns the results to record, in
	// order. Run calls it from many goroutines at once. ctx outlives Run's
	// context by the grace period: after an interrupt no job starts, but
	// those in flight may finish. ErrAbandoned (ctx ended the job) drops
	// the job: nothing of it is recorded. Any other error stops the run: no
	// job starts after it, the results returned with it are still recorded,
	// and Run returns it.
	Do(ctx context.Context, job J) ([]R, error)
	// Record keeps one result and says what it changes on the status line.
	// Run calls it from one goroutine, in the order results arrive, so a
	// journal needs no lock. After an error nothing more is recorded, no
	// job starts, and Run returns the error.
	Record(res R) (Step, error)
}

// Plan is what is left of a stage's jobs.
type Plan struct {
	Pending []int32 // the index of every job with results left to make, in order
	Results int     // the results all the jobs make
	Left    int     // how many of those are not made yet
}

// PlanOf goes once over jobs (a job may be costly to make) and finds the
// pending ones: count says how many results a job makes and how many of
// them are not yet recorded (left); a job with none left is skipped, its
// results stand from an earlier run.
func PlanOf[J any](jobs Jobs[J], count func(J) (results, left int)) Plan {
	var p Plan
	for i := range jobs.Len() {
		n, left := count(jobs.At(i))
		p.Results += n
		if left > 0 {
			p.Left += left
			p.Pending = append(p.Pending, int32(i))
		}
	}
	return p
}

// Runner runs a stage's pending jobs.
type Runner[J, R any] struct {
	Stage   string        // names the stage in what is logged
	Log     io.Writer     // where progress and the interrupt are logged
	Workers int           // jobs run at once (below 1: one)
	Grace   time.Duration // how long jobs in flight may run on after an interrupt
	Work    Work[J, R]
	Report  Report // how progress is reported
}

// Run does the jobs of jobs at the indexes pending, Workers at a time,
// and records their results as they come (Work). It returns how many
// results were made now (Step.Ran), and the first error of Do or Record,
// else ctx's error when ctx ended (interrupted: no job starts after it;
// those in flight finish within the grace period and are recorded, or are
// abandoned), else nil.
func (r *Runner[J, R]) Run(ctx context.Context, jobs Jobs[J], pending []int32) (int, error) {
	prog := newProgress(r.Log, r.Stage, r.Report)
	results := make(chan R)
	var failed atomic.Bool // Record failed: take no more work
	recorded := make(chan error, 1)
	go func() { // the only caller of Record
		var err error
		for res := range results {
			if err != nil {
				continue
			}
			var st Step
			if st, err = r.Work.Record(res); err != nil {
				failed.Store(true)
			} else if !st.Skipped {
				prog.finished(st)
			}
		}
		recorded <- err
	}()

	work, stopWork := graceful(ctx, r.Log, r.Stage, r.Grace)
	defer stopWork()
	var stop atomic.Pointer[error] // the first error of Do
	stopping := func() bool { return ctx.Err() != nil || stop.Load() != nil || failed.Load() }
	g := new(errgroup.Group)
	g.SetLimit(max(r.Workers, 1))
	for _, i := range pending {
		if stopping() {
			break
		}
		jb := jobs.At(int(i))
		g.Go(func() error { // Go waits for a free worker
			if stopping() {
				return nil
			}
			res, err := r.Work.Do(work, jb)
			if errors.Is(err, ErrAbandoned) {
				return nil
			}
			if err != nil {
				stop.CompareAndSwap(nil, &err)
			}
			for _, x := range res {
				results <- x
			}
			return nil
		})
	}
	g.Wait()
	stopWork()
	close(results)
	rerr := <-recorded
	prog.close()
	switch {
	case stop.Load() != nil:
		return prog.ran, *stop.Load()
	case rerr != nil:
		return prog.ran, rerr
	}
	return prog.ran, ctx.Err()
}

// Interrupted is the error of a stage that ctx ended after done of total
// results: what it kept and how to go on.
func Interrupted(stage string, done, total int, err error) error {
	return fmt.Errorf("%s: interrupted after %d of %d rollouts (all finished ones are kept; run the same command again to continue): %w",
		stage, done, total, err)
}

// graceful returns the context jobs run under: it outlives ctx by the
// grace period, so that after an interrupt no job starts but those in
// flight may finish; then it is cancelled and they are abandoned. stop
// cancels it and returns once nothing more is logged.
func graceful(ctx context.Context, log io.Writer, stage string, grace time.Duration) (work context.Context, stop func()) {
	work, cancel := context.WithCancel(context.WithoutCancel(ctx))
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		select {
		case <-ctx.Done():
			fmt.Fprintf(log, "%s: letting the rollouts in flight finish (up to %s)\n", stage, grace)
			t := time.NewTimer(grace)
			defer t.Stop()
			select {
			case <-t.C:
				cancel()
			case <-work.Done():
			}
		case <-work.Done():
		}
	}()
	return work, func() { cancel(); <-exited }
}
