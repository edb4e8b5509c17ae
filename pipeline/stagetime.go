package pipeline

import (
	"syscall"
	"time"

	"synth/schemas"
)

// stageClock times the stages of one build: each funnel line closes the
// stage that began where the previous one ended.
type stageClock struct {
	start time.Time
	cpu   time.Duration
	times []schemas.StageTime
}

func newStageClock() stageClock { return stageClock{start: time.Now(), cpu: processCPU()} }

// lap records the stage that ends now.
func (c *stageClock) lap(stage string, in, out int) {
	now, cpu := time.Now(), processCPU()
	c.times = append(c.times, schemas.StageTime{
		Stage: stage, Started: c.start.UTC(), Ended: now.UTC(),
		CPUSeconds: (cpu - c.cpu).Seconds(), In: in, Out: out,
	})
	c.start, c.cpu = now, cpu
}

// processCPU is the user and system CPU of this process and of the child
// processes it has waited for.
func processCPU() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
