package runner

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// work is a Work whose jobs are ints: job n makes results n*10 and n*10+1,
// through do when set.
type work struct {
	do        func(ctx context.Context, n int) ([]int, error)
	recordErr map[int]error
	mu        sync.Mutex
	started   []int
	recorded  []int
	inRecord  atomic.Int32
	overlap   atomic.Bool
}

func (w *work) Do(ctx context.Context, n int) ([]int, error) {
	w.mu.Lock()
	w.started = append(w.started, n)
	w.mu.Unlock()
	if w.do != nil {
		return w.do(ctx, n)
	}
	return []int{n * 10, n*10 + 1}, nil
}

func (w *work) Record(res int) (Step, error) {
	if w.inRecord.Add(1) > 1 {
		w.overlap.Store(true)
	}
	defer w.inRecord.Add(-1)
	time.Sleep(time.Millisecond) // widen the window a second recorder would use
	if err := w.recordErr[res]; err != nil {
		return Step{}, err
	}
	w.recorded = append(w.recorded, res)
	return Step{Done: 1, Ran: true}, nil
}

func runner(w *work, workers int, log *bytes.Buffer) *Runner[int, int] {
	return &Runner[int, int]{Stage: "test", Log: log, Workers: workers, Grace: time.Minute, Work: w}
}

// TestPlanSkipsFinishedJobs: a job with no results left is not run; the
// plan counts every job's results and those left.
func TestPlanSkipsFinishedJobs(t *testing.T) {
	jobs := Slice[int]{0, 1, 2, 3, 4}
	left := map[int]int{1: 2, 3: 1}
	p := PlanOf[int](jobs, func(n int) (int, int) { return 2, left[n] })
	if !slices.Equal(p.Pending, []int32{1, 3}) || p.Results != 10 || p.Left != 3 {
		t.Fatalf("plan %+v, want pending [1 3], 10 results, 3 left", p)
	}
	w := &work{}
	var log bytes.Buffer
	ran, err := runner(w, 4, &log).Run(context.Background(), jobs, p.Pending)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(w.started)
	slices.Sort(w.recorded)
	if !slices.Equal(w.started, []int{1, 3}) || !slices.Equal(w.recorded, []int{10, 11, 30, 31}) || ran != 4 {
		t.Errorf("started %v, recorded %v, ran %d; want jobs 1 and 3, their four results", w.started, w.recorded, ran)
	}
	if w.overlap.Load() {
		t.Error("Record ran on two goroutines at once")
	}
}

// TestRunStopsOnAJobsError: after a job's error no job starts; the results
// it returned with the error are recorded, and Run returns the error.
func TestRunStopsOnAJobsError(t *testing.T) {
	boom := errors.New("boom")
	w := &work{do: func(_ context.Context, n int) ([]int, error) {
		if n == 2 {
			return []int{20}, boom
		}
		return []int{n * 10}, nil
	}}
	_, err := runner(w, 1, &bytes.Buffer{}).Run(context.Background(), Slice[int]{0, 1, 2, 3, 4}, []int32{0, 1, 2, 3, 4})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if !slices.Equal(w.started, []int{0, 1, 2}) || !slices.Equal(w.recorded, []int{0, 10, 20}) {
		t.Errorf("started %v, recorded %v; want no job after 2, and 2's result kept", w.started, w.recorded)
	}
}

// TestRunStopsOnARecordError: a result that cannot be recorded stops the
// run: nothing after it is recorded, and Run returns the error.
func TestRunStopsOnARecordError(t *testing.T) {
	full := errors.New("disk full")
	w := &work{recordErr: map[int]error{11: full}}
	_, err := runner(w, 1, &bytes.Buffer{}).Run(context.Background(), Slice[int]{0, 1, 2, 3, 4, 5, 6, 7}, []int32{0, 1, 2, 3, 4, 5, 6, 7})
	if !errors.Is(err, full) {
		t.Fatalf("error %v, want the record's", err)
	}
	if !slices.Equal(w.recorded, []int{0, 1, 10}) {
		t.Errorf("recorded %v, want nothing after the failed record", w.recorded)
	}
	if len(w.started) == 8 {
		t.Errorf("every job started after the record failed: %v", w.started)
	}
}

// TestRunInterrupted: after ctx ends no job starts; the one in flight
// finishes under the grace period and is recorded; one the grace period
// cuts short is abandoned, unrecorded. Run returns ctx's error.
func TestRunInterrupted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		grace time.Duration
		want  []int
	}{
		{"finishes within the grace period", time.Minute, []int{0}},
		{"abandoned when it ends", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			w := &work{do: func(wctx context.Context, n int) ([]int, error) {
				cancel() // the interrupt arrives while job 0 runs
				if tc.grace == 0 {
					<-wctx.Done()
					return nil, ErrAbandoned
				}
				if wctx.Err() != nil {
					return nil, errors.New("the job's context ended with the interrupt")
				}
				return []int{n}, nil
			}}
			var log bytes.Buffer
			r := runner(w, 1, &log)
			r.Grace = tc.grace
			_, err := r.Run(ctx, Slice[int]{0, 1, 2}, []int32{0, 1, 2})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want ctx's", err)
			}
			if !slices.Equal(w.started, []int{0}) || !slices.Equal(w.recorded, tc.want) {
				t.Errorf("started %v, recorded %v; want only job 0 started, recorded %v", w.started, w.recorded, tc.want)
			}
			// Where the job ends with the interrupt, the message may not come.
			if msg := "test: letting the rollouts in flight finish"; tc.grace == 0 && !strings.Contains(log.String(), msg) {
				t.Errorf("log %q does not say %s", log.String(), msg)
			}
		})
	}
}

// TestInterrupted is the message of an interrupted stage.
func TestInterrupted(t *testing.T) {
	err := Interrupted("rollout", 3, 7, context.Canceled)
	want := "rollout: interrupted after 3 of 7 rollouts (all finished ones are kept; run the same command again to continue): context canceled"
	if err.Error() != want || !errors.Is(err, context.Canceled) {
		t.Errorf("%v, want %s wrapping ctx's error", err, want)
	}
}
