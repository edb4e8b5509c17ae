package pipeline

import (
	"fmt"
	"io"
	"sync"
	"time"

	"synth/bench"
)

// evalProgress reports an eval as it goes, with the pass rate so far: a
// live status line on a terminal, otherwise a line every logEvery.
type evalProgress struct {
	mu      sync.Mutex
	w       io.Writer
	live    bool
	total   int
	done    int // jobs with a counted or infra result
	resumed int
	scored  int
	passed  int
	infra   int
	ran     int
	judged  int
	tokens  int64
	cost    float64
	start   time.Time
	last    time.Time
}

func newEvalProgress(w io.Writer, live bool, total int, done map[string]bench.Result, jobs []job) *evalProgress {
	p := &evalProgress{w: w, live: live, total: total, start: time.Now(), last: time.Now()}
	for _, jb := range jobs {
		if res, ok := done[jb.id]; ok {
			p.count(res, 1)
			p.done++
		}
	}
	p.resumed = p.done
	if p.resumed > 0 {
		fmt.Fprintf(w, "eval: resuming: %d of %d rollouts already done (%s)\n", p.resumed, total, p.rate())
	}
	return p
}

func (p *evalProgress) count(res bench.Result, sign int) {
	switch {
	case res.Infra:
		p.infra += sign
	case res.Passed:
		p.passed += sign
		p.scored += sign
	default:
		p.scored += sign
	}
}

// finished takes a new result; prev is the one it replaces, if had.
func (p *evalProgress) finished(prev bench.Result, had bool, res bench.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if had {
		p.count(prev, -1)
	} else {
		p.done++
	}
	p.count(res, 1)
	if !had || prev.Infra {
		p.ran++
		if res.Traj != nil {
			p.tokens += res.Traj.Usage.PromptTokens + res.Traj.Usage.CompletionTokens
			p.cost += res.Traj.Usage.CostUSD
		}
	}
	if res.Judge != nil && (prev.Judge == nil || !had) {
		p.judged++
	}
	switch {
	case p.live:
		fmt.Fprintf(p.w, "\r\033[K%s", p.line())
	case time.Since(p.last) >= logEvery || p.done == p.total:
		p.last = time.Now()
		fmt.Fprintln(p.w, p.line())
	}
}

func (p *evalProgress) rate() string {
	if p.scored == 0 {
		return "pass rate -"
	}
	return fmt.Sprintf("pass rate %.1f%% (%d/%d)", 100*float64(p.passed)/float64(p.scored), p.passed, p.scored)
}

func (p *evalProgress) line() string {
	s := fmt.Sprintf("eval: %d/%d rollouts, %s", p.done, p.total, p.rate())
	if p.infra > 0 {
		s += fmt.Sprintf(", %d infra errors (not scored)", p.infra)
	}
	if p.tokens > 0 {
		s += fmt.Sprintf(", %d tokens, $%.4f", p.tokens, p.cost)
	}
	if el := time.Since(p.start); p.ran > 0 && p.done < p.total {
		rate := float64(p.ran) / el.Seconds()
		eta := time.Duration(float64(p.total-p.done)/rate) * time.Second
		s += fmt.Sprintf(", %.1f/s, ETA %s", rate, eta.Round(time.Second))
	}
	return s
}

func (p *evalProgress) counts() (ran, judged int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ran, p.judged
}

func (p *evalProgress) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live && p.done > p.resumed {
		fmt.Fprintln(p.w)
	}
}
