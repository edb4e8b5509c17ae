package filters

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
)

// Stage names the pipeline uses, in funnel order.
const (
	StageRollout = "rollout"       // rollouts finished (infra failures retried, then dropped)
	StageVerify  = "verify"        // the task's checks passed
	StageDedup   = "dedup"         // not a duplicate query or trajectory
	StageDecon   = "decontaminate" // no overlap with a benchmark query or input file
	StageQuality = "quality"       // the quality gates
)

// examplesPerReason is how many examples a reason keeps for the card.
const examplesPerReason = 3

// Funnel counts the items that enter and leave each filter stage and why
// the dropped ones were dropped. Its methods are safe for concurrent use. It
// encodes to and decodes from JSON (stats.json, run.json), so a resumed run
// can go on counting where it stopped.
type Funnel struct {
	mu     sync.Mutex
	Stages []*StageCount `json:"stages"`
	log    *json.Encoder
	logErr error
}

// StageCount is one stage of a Funnel.
type StageCount struct {
	Name    string         `json:"name"`
	In      int64          `json:"in"`
	Out     int64          `json:"out"`
	Retries int64          `json:"retries,omitempty"` // infrastructure failures run again
	Reasons []*ReasonCount `json:"reasons,omitempty"` // most frequent first
}

// ReasonCount is how many items a stage dropped for one reason.
type ReasonCount struct {
	Reason   string   `json:"reason"`
	Count    int64    `json:"count"`
	Infra    bool     `json:"infra,omitempty"`    // an infrastructure error, not a task failure
	Examples []string `json:"examples,omitempty"` // "item: matched" of the first few
}

// DropRecord is one dropped item, as Funnel.LogTo writes it.
type DropRecord struct {
	Stage   string `json:"stage"`
	Item    string `json:"item"`
	Reason  string `json:"reason"`
	Matched string `json:"matched,omitempty"`
}

// NewFunnel returns a funnel with the named stages in order. A stage not
// named here is appended when first counted.
func NewFunnel(stages ...string) *Funnel {
	f := &Funnel{}
	for _, s := range stages {
		f.stage(s)
	}
	return f
}

// LogTo makes the funnel write every drop to w as a JSON line (DropRecord),
// so each dropped item keeps what it matched. w is written under the
// funnel's lock; a write error is kept and returned by Err.
func (f *Funnel) LogTo(w io.Writer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log = json.NewEncoder(w)
}

// Err returns the first error writing the drop log.
func (f *Funnel) Err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.logErr
}

// Pass counts an item that entered stage and left it.
func (f *Funnel) Pass(stage string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.stage(stage)
	s.In++
	s.Out++
}

// Drop counts an item that entered stage and was dropped for reason (a
// stable word such as near_duplicate_query); matched says what it matched
// or why (another item's id, a benchmark task, a measured value).
func (f *Funnel) Drop(stage, item, reason, matched string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.stage(stage)
	s.In++
	r := s.reason(reason)
	r.Count++
	if len(r.Examples) < examplesPerReason {
		ex := item
		if matched != "" {
			ex += ": " + matched
		}
		r.Examples = append(r.Examples, ex)
	}
	slices.SortStableFunc(s.Reasons, func(a, b *ReasonCount) int { return cmpCount(b.Count, a.Count) })
	if f.log != nil && f.logErr == nil {
		if err := f.log.Encode(DropRecord{Stage: stage, Item: item, Reason: reason, Matched: matched}); err != nil {
			f.logErr = fmt.Errorf("funnel: drop log: %w", err)
		}
	}
}

// Retry counts an infrastructure failure in stage that will be run again;
// it is not a drop and not a task failure.
func (f *Funnel) Retry(stage string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stage(stage).Retries++
}

// Final returns the items that left the last stage: the rows of the dataset.
func (f *Funnel) Final() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.Stages) == 0 {
		return 0
	}
	return f.Stages[len(f.Stages)-1].Out
}

// Snapshot returns a deep copy of the stages, for reporting while the
// funnel is still counting.
func (f *Funnel) Snapshot() []StageCount {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]StageCount, len(f.Stages))
	for i, s := range f.Stages {
		out[i] = *s
		out[i].Reasons = make([]*ReasonCount, len(s.Reasons))
		for j, r := range s.Reasons {
			rc := *r
			rc.Examples = slices.Clone(r.Examples)
			out[i].Reasons[j] = &rc
		}
	}
	return out
}

// MarshalJSON encodes the funnel as {"stages": [...]}.
func (f *Funnel) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Stages []StageCount `json:"stages"`
	}{f.Snapshot()})
}

// UnmarshalJSON replaces the funnel's counts with the encoded ones.
func (f *Funnel) UnmarshalJSON(b []byte) error {
	var v struct {
		Stages []*StageCount `json:"stages"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Stages = v.Stages
	return nil
}

func (f *Funnel) stage(name string) *StageCount {
	for _, s := range f.Stages {
		if s.Name == name {
			return s
		}
	}
	s := &StageCount{Name: name}
	f.Stages = append(f.Stages, s)
	return s
}

func (s *StageCount) reason(name string) *ReasonCount {
	for _, r := range s.Reasons {
		if r.Reason == name {
			return r
		}
	}
	r := &ReasonCount{Reason: name, Infra: IsInfra(name)}
	s.Reasons = append(s.Reasons, r)
	return r
}

func cmpCount(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
