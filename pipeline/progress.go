package pipeline

import (
	"fmt"
	"io"
	"sync"
	"time"

	"synth/schemas"
)

// progress reports a rollout stage as it goes: a live status line on a
// terminal, otherwise a log line every logEvery.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	live     bool
	stage    string
	proofs   bool // the rollouts prove tasks: most are meant to fail
	total    int
	done     int
	resumed  int
	passed   int
	failures map[string]int
	tokens   int64
	cost     float64
	start    time.Time
	last     time.Time
}

const logEvery = 15 * time.Second

func newProgress(w io.Writer, live bool, stage string, proofs bool, total, resumed int) *progress {
	p := &progress{w: w, live: live, stage: stage, proofs: proofs, total: total, done: resumed, resumed: resumed, failures: map[string]int{}, start: time.Now(), last: time.Now()}
	if resumed > 0 {
		fmt.Fprintf(w, "%s: resuming: %d of %d rollouts already done\n", stage, resumed, total)
	}
	return p
}

func (p *progress) finished(t *schemas.Trajectory) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if t.Verdict != nil && t.Verdict.Passed {
		p.passed++
	} else if t.Verdict != nil {
		p.failures[t.Verdict.Failure]++
	}
	p.tokens += t.Usage.PromptTokens + t.Usage.CompletionTokens
	p.cost += t.Usage.CostUSD
	switch {
	case p.live:
		fmt.Fprintf(p.w, "\r\033[K%s", p.line())
	case time.Since(p.last) >= logEvery || p.done == p.total:
		p.last = time.Now()
		fmt.Fprintln(p.w, p.line())
	}
}

func (p *progress) line() string {
	ran := p.done - p.resumed
	s := fmt.Sprintf("%s: %d/%d done, %d passed", p.stage, p.done, p.total, p.passed)
	if p.proofs {
		s = fmt.Sprintf("%s: %d/%d rollouts done (reference, empty, mutated and adversary proofs of each benchmark task)", p.stage, p.done, p.total)
	} else if len(p.failures) > 0 {
		s += ", failed: " + countsNote(p.failures)
	}
	if p.tokens > 0 {
		s += fmt.Sprintf(", %d tokens, $%.4f", p.tokens, p.cost)
	}
	if el := time.Since(p.start); ran > 0 && p.done < p.total {
		rate := float64(ran) / el.Seconds()
		eta := time.Duration(float64(p.total-p.done)/rate) * time.Second
		s += fmt.Sprintf(", %.1f/s, ETA %s", rate, eta.Round(time.Second))
	}
	return s
}

func (p *progress) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live && p.done > p.resumed {
		fmt.Fprintln(p.w)
	}
}
