package pipeline

import (
	"time"

	"synth/internal/proccpu"
	"synth/schemas"
)

// stageClock times the stages of one build: each funnel line closes the
// stage that began where the previous one ended. A stage's CPU is that of
// synth and every process below it (the sandbox's zygote and interpreters
// included, running or gone): what the stage cost the machine.
type stageClock struct {
	start time.Time
	cpu   time.Duration
	times []schemas.StageTime
}

func newStageClock() stageClock { return stageClock{start: time.Now(), cpu: proccpu.Tree()} }

// lap records the stage that ends now.
func (c *stageClock) lap(stage string, in, out int) {
	now, cpu := time.Now(), proccpu.Tree()
	c.times = append(c.times, schemas.StageTime{
		Stage: stage, Started: c.start.UTC(), Ended: now.UTC(),
		CPUSeconds: (cpu - c.cpu).Seconds(), In: in, Out: out,
	})
	c.start, c.cpu = now, cpu
}
