package runner

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// LogEvery is how often the status line is logged when it is not live (and
// at the end).
const LogEvery = 15 * time.Second

// Report says how Run reports a stage as it goes: a live status line on a
// terminal, otherwise a log line every LogEvery and one when the last
// result is done.
type Report struct {
	Live    bool // rewrite one line in place (a terminal)
	Total   int  // the stage's results in all
	Resumed int  // of those, done by earlier runs
	// Head is the status line up to the counts Run keeps: the stage, done
	// of total, and the caller's counts, which its Record keeps. nil:
	// "STAGE: DONE/TOTAL done".
	Head func(done, total int) string
	// Note, when set, is added in parentheses to the line that says the
	// stage resumes.
	Note func() string
}

// progress is the status line of one Run. Run's recorder goroutine calls
// finished; the mutex guards against a reader elsewhere.
type progress struct {
	mu          sync.Mutex
	w           io.Writer
	stage       string
	rep         Report
	done, ran   int
	tokens      int64
	cost        float64
	start, last time.Time
	now         func() time.Time
}

func newProgress(w io.Writer, stage string, rep Report) *progress {
	p := &progress{w: w, stage: stage, rep: rep, done: rep.Resumed, now: time.Now}
	p.start, p.last = p.now(), p.now()
	if rep.Resumed > 0 {
		note := ""
		if rep.Note != nil {
			note = " (" + rep.Note() + ")"
		}
		fmt.Fprintf(w, "%s: resuming: %d of %d rollouts already done%s\n", stage, rep.Resumed, rep.Total, note)
	}
	return p
}

// finished counts one recorded result and writes the line: always when
// live, else when LogEvery has passed since the last or all are done.
func (p *progress) finished(st Step) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += st.Done
	if st.Ran {
		p.ran++
		p.tokens += st.Tokens
		p.cost += st.Cost
	}
	switch {
	case p.rep.Live:
		fmt.Fprintf(p.w, "\r\033[K%s", p.line())
	case p.now().Sub(p.last) >= LogEvery || p.done == p.rep.Total:
		p.last = p.now()
		fmt.Fprintln(p.w, p.line())
	}
}

func (p *progress) line() string {
	var s string
	if p.rep.Head != nil {
		s = p.rep.Head(p.done, p.rep.Total)
	} else {
		s = fmt.Sprintf("%s: %d/%d done", p.stage, p.done, p.rep.Total)
	}
	if p.tokens > 0 {
		s += fmt.Sprintf(", %d tokens, $%.4f", p.tokens, p.cost)
	}
	if el := p.now().Sub(p.start); p.ran > 0 && p.done < p.rep.Total {
		rate := float64(p.ran) / el.Seconds()
		eta := time.Duration(float64(p.rep.Total-p.done)/rate) * time.Second
		s += fmt.Sprintf(", %.1f/s, ETA %s", rate, eta.Round(time.Second))
	}
	return s
}

// close ends a live line that was written.
func (p *progress) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rep.Live && p.done > p.rep.Resumed {
		fmt.Fprintln(p.w)
	}
}

// Step is what one recorded result changes on the status line.
type Step struct {
	// Skipped: the result was not recorded (an earlier run journaled it);
	// nothing changes and no line is written.
	Skipped bool
	// Done is how many more of the stage's results are done: 1, or 0 for
	// a result that replaces one an earlier run made.
	Done int
	// Ran: the result was made now and counts toward the rate.
	Ran bool
	// Tokens and Cost are what making it spent at the teacher's endpoint.
	Tokens int64
	Cost   float64
}
