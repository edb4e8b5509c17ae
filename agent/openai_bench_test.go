package agent_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"synth/agent"
	"synth/internal/proccpu"
	"synth/llm"
	"synth/llm/llmtest"
	"synth/pyenv"
	"synth/sandbox"
	"synth/schemas"
)

// Rollout throughput: the openai teacher against a fake endpoint that
// answers every request after a fixed latency, three requests per rollout
// (two cells, then "Finished:"), with trivial cells. The ideal is
// concurrency / (3 x latency) trajectories per second; the benchmark
// reports traj/s and the percentage of that ideal. Run with
//
//	go test -run '^$' -bench RolloutThroughput -benchtime 1x ./agent/
//
// BenchmarkRolloutThroughput uses an in-process sandbox, so it measures the
// client and the loop; BenchmarkRolloutThroughputSandbox opens a real
// sandbox per rollout.
//
// Each worker plays SYNTH_BENCH_ROUNDS rollouts (default 4) one after
// another. Every rollout takes as long as the others, so the workers move
// in lockstep: their sandboxes open and close at the same moments, and the
// first round opens them all at once from a cold pool. More rounds measure
// a long build's steady rate.

const (
	benchLatency = 200 * time.Millisecond
	benchTurns   = 3
)

var benchScript = llmtest.Texts(
	llmtest.PyBench("Look at the data.", "Print a number.", "x = 1\nprint(x)"),
	llmtest.PyBench("Add one.", "Print the sum.", "print(x + 1)"),
	"Finished: 2")

func BenchmarkRolloutThroughput(b *testing.B) {
	for _, c := range []int{1, 16, 64, 256} {
		b.Run(fmt.Sprintf("c=%d", c), func(b *testing.B) {
			benchRollouts(b, c, func(context.Context) (sandbox.Sandbox, error) { return &cellSandbox{}, nil })
		})
	}
}

func BenchmarkRolloutThroughputSandbox(b *testing.B) {
	if _, err := os.Stat(pyenv.Sandbox.Python()); err != nil {
		b.Skip("needs the locked sandbox environment " + pyenv.Sandbox.Python() + " (scripts/pyenv.sh sandbox)")
	}
	for _, c := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("c=%d", c), func(b *testing.B) {
			be, err := sandbox.New(sandbox.Config{Slots: c})
			if err != nil {
				b.Skipf("sandbox: %v", err)
			}
			defer be.Close()
			// Start the zygote before the clock runs.
			sb, err := be.Open(context.Background(), sandbox.Spec{})
			if err != nil {
				b.Skipf("sandbox: %v", err)
			}
			sb.Close()
			// As synth plays a rollout: the sandbox opens while the
			// teacher writes its first reply.
			benchRollouts(b, c, func(ctx context.Context) (sandbox.Sandbox, error) {
				return sandbox.OpenAsync(ctx, be, sandbox.Spec{}), nil
			})
		})
	}
}

// benchRollouts runs max(rounds x c, 8) rollouts per iteration with c
// workers.
func benchRollouts(b *testing.B, c int, open func(context.Context) (sandbox.Sandbox, error)) {
	rounds := 4
	if v := os.Getenv("SYNTH_BENCH_ROUNDS"); v != "" {
		if _, err := fmt.Sscan(v, &rounds); err != nil || rounds < 1 {
			b.Fatalf("SYNTH_BENCH_ROUNDS=%q: want a count of rollouts per worker, at least 1", v)
		}
	}
	srv := llmtest.NewServer(b, benchScript)
	srv.SetLatency(benchLatency)
	cl, err := llm.New(llm.Config{Endpoints: []llm.Endpoint{{BaseURL: srv.URL, Model: "m", KeyEnv: "NO_SUCH_KEY_ENV", Concurrency: c}}})
	if err != nil {
		b.Fatal(err)
	}
	teacher := agent.NewOpenAI(cl, agent.Config{})
	f := agent.NewPyBench()
	n := max(rounds*c, 8)
	ctx := context.Background()
	var failed sync.Once
	b.ResetTimer()
	start, cpu0 := time.Now(), proccpu.Tree()
	for range b.N {
		jobs := make(chan int)
		var wg sync.WaitGroup
		for range c {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range jobs {
					task := &schemas.Task{ID: fmt.Sprintf("t%d", i), Query: "Add one to one."}
					sb, err := open(ctx)
					if err != nil {
						failed.Do(func() { b.Error(err) })
						continue
					}
					tr, err := agent.Run(ctx, teacher, f, sb, task, agent.Options{ID: task.ID})
					sb.Close()
					if err != nil || tr.StopReason != schemas.StopFinished || len(tr.Steps) != 2 {
						failed.Do(func() { b.Errorf("rollout %d: %v %+v", i, err, tr) })
					}
				}
			}()
		}
		for i := range n {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
	}
	elapsed, cpu := time.Since(start), proccpu.Tree()-cpu0
	rate := float64(n*b.N) / elapsed.Seconds()
	ideal := float64(c) / (benchTurns * benchLatency.Seconds())
	b.ReportMetric(rate, "traj/s")
	b.ReportMetric(100*rate/ideal, "%ideal")
	// Everything this process and its children used: the fake endpoint, the
	// client and the loop, and with a real sandbox the zygote and the
	// interpreters.
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n*b.N), "cpu-ms/traj")
	b.ReportMetric(0, "ns/op")
}
