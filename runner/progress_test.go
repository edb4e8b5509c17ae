package runner

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// TestProgressLines: the resume line, the caller's head, tokens and cost,
// and the rate and time left from the results made now; a line when
// LogEvery has passed and at the end, not for every result; a live line
// is rewritten in place and ended on close.
func TestProgressLines(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tally := 0
	rep := Report{Total: 6, Resumed: 2,
		Head: func(done, total int) string { return fmt.Sprintf("st: %d/%d, %d passed", done, total, tally) },
		Note: func() string { return "pass rate 50%" }}
	var log bytes.Buffer
	p := newProgress(&log, "st", rep)
	p.now = func() time.Time { return clock }
	p.start, p.last = clock, clock
	step := Step{Done: 1, Ran: true, Tokens: 100, Cost: 0.5}
	clock = clock.Add(2 * time.Second)
	tally++
	p.finished(step) // 3 of 6: too soon for a line
	clock = clock.Add(LogEvery)
	p.finished(Step{}) // a judgement: nothing done, a line is due
	p.finished(step)
	p.finished(step)
	p.finished(step) // the last: a line
	p.close()
	want := "st: resuming: 2 of 6 rollouts already done (pass rate 50%)\n" +
		"st: 3/6, 1 passed, 100 tokens, $0.5000, 0.1/s, ETA 51s\n" +
		"st: 6/6, 1 passed, 400 tokens, $2.0000\n"
	if got := log.String(); got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}

	log.Reset()
	p = newProgress(&log, "st", Report{Live: true, Total: 2})
	p.now = func() time.Time { return clock }
	p.start = clock
	clock = clock.Add(time.Second)
	p.finished(Step{Done: 1, Ran: true})
	p.finished(Step{Done: 1, Ran: true})
	p.close()
	if got, want := log.String(), "\r\033[Kst: 1/2 done, 1.0/s, ETA 1s\r\033[Kst: 2/2 done\n"; got != want {
		t.Errorf("live lines %q, want %q", got, want)
	}
}
