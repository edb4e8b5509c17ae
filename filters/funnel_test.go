package filters

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestFunnelCounts(t *testing.T) {
	f := NewFunnel(StageVerify, StageDedup)
	var log bytes.Buffer
	f.LogTo(&log)
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			if i%10 == 0 {
				f.Drop(StageVerify, "t", "check_failed", "")
				return
			}
			f.Pass(StageVerify)
			if i%3 == 0 {
				f.Drop(StageDedup, "t", ReasonNearDuplicateQuery, "task x")
				return
			}
			f.Pass(StageDedup)
		})
	}
	f.Drop(StageVerify, "t", "sandbox_crash", "")
	f.Retry(StageVerify)
	wg.Wait()

	s := f.Snapshot()
	if s[0].Name != StageVerify || s[0].In != 101 || s[0].Out != 90 || s[0].Retries != 1 {
		t.Errorf("verify %+v", s[0])
	}
	if s[0].Reasons[0].Reason != "check_failed" || s[0].Reasons[0].Count != 10 || s[0].Reasons[1].Infra != true {
		t.Errorf("verify reasons %+v %+v", s[0].Reasons[0], s[0].Reasons[1])
	}
	// i in 1..99, not a multiple of 10, a multiple of 3: 30 of them.
	if s[1].In != 90 || s[1].Out != 60 || f.Final() != 60 {
		t.Errorf("dedup %+v, final %d", s[1], f.Final())
	}
	if n := strings.Count(log.String(), "\n"); n != 41 {
		t.Errorf("drop log has %d lines, want 41", n)
	}
	if !strings.Contains(log.String(), `"matched":"task x"`) {
		t.Errorf("drop log misses what was matched:\n%s", log.String())
	}

	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	g := &Funnel{}
	if err := json.Unmarshal(b, g); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(f.Snapshot(), g.Snapshot(), cmpopts.IgnoreUnexported()); diff != "" {
		t.Errorf("JSON round trip (-want +got):\n%s", diff)
	}
	g.Pass(StageDedup)
	if g.Final() != 61 {
		t.Errorf("a decoded funnel does not go on counting: %d", g.Final())
	}
}

func TestFunnelMarkdown(t *testing.T) {
	f := NewFunnel(StageVerify)
	f.Pass(StageVerify)
	f.Drop(StageVerify, "a", "teacher_error", "")
	f.Drop(StageQuality, "b", "not|finished", "")
	var b strings.Builder
	if err := f.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	want := `| stage | in | out | dropped | reasons |
|---|---:|---:|---:|---|
| verify | 2 | 1 | 1 | teacher_error 1 (infrastructure) |
| quality | 1 | 0 | 1 | not\|finished 1 |
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("markdown (-want +got):\n%s", diff)
	}
}

func TestRetryPolicy(t *testing.T) {
	for _, tc := range []struct {
		retries int
		failure string
		attempt int
		want    bool
	}{
		{0, "sandbox_crash", 1, true},
		{0, "sandbox_crash", 2, true},
		{0, "sandbox_crash", 3, false},
		{-1, "teacher_error", 1, false},
		{5, "teacher_error", 5, true},
		{5, "check_failed", 1, false},
		{5, "max_turns", 1, false},
	} {
		c := Config{InfraRetries: tc.retries}
		if got := c.ShouldRetry(tc.failure, tc.attempt); got != tc.want {
			t.Errorf("retries %d: ShouldRetry(%s, %d) = %v", tc.retries, tc.failure, tc.attempt, got)
		}
	}
}
