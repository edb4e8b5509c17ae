package filters

import (
	"fmt"
	"strings"

	"synth/schemas"
)

// StageHygiene counts the trajectories the hygiene gate (Hygiene.Check)
// saw and why it dropped some.
const StageHygiene = "hygiene"

// Reasons the hygiene gate drops a trajectory for: habits a model trained
// on the row would learn.
const (
	ReasonRepeatedCell     = "repeated_cell"     // identical consecutive code cells
	ReasonErrorLoop        = "error_loop"        // the same error again and again
	ReasonRepeatedTurn     = "repeated_turn"     // an assistant turn that repeats an earlier one
	ReasonTemplatedOpening = "templated_opening" // an opening that too many kept rows share
)

// HygieneConfig configures the hygiene gate. Each count is the repeats
// from which a trajectory is dropped; a zero count takes its default, a
// negative one turns that check off (it is still measured, at the default).
type HygieneConfig struct {
	// RepeatedCells: this many identical consecutive code cells drop a
	// trajectory (default 2: one cell run twice in a row).
	RepeatedCells int `yaml:"repeated_cells" json:"repeated_cells,omitempty"`
	// ErrorLoop: the same error (the last line of a failed cell's output)
	// this many times drops a trajectory (default 3).
	ErrorLoop int `yaml:"error_loop" json:"error_loop,omitempty"`
	// RepeatedTurns: this many identical assistant turns, anywhere in the
	// conversation, drop a trajectory (default 2: a turn and one repeat).
	RepeatedTurns int `yaml:"repeated_turns" json:"repeated_turns,omitempty"`
	// OpeningWords is how many words of the first assistant turn make its
	// opening, the unit of the templated-openings measure (default 8).
	OpeningWords int `yaml:"opening_words" json:"opening_words,omitempty"`
	// MaxOpeningShare caps the share of kept rows one opening may hold: once
	// OpeningMinRows rows are kept, a row whose opening already holds that
	// share of them is dropped as templated_opening. 0 (default) measures
	// the share and drops nothing.
	MaxOpeningShare float64 `yaml:"max_opening_share" json:"max_opening_share,omitempty"`
	// OpeningMinRows is the kept rows from which MaxOpeningShare applies
	// (default 20): a share of a handful of rows says nothing.
	OpeningMinRows int `yaml:"opening_min_rows" json:"opening_min_rows,omitempty"`
}

// Defaults of HygieneConfig.
const (
	DefaultRepeatedCells  = 2
	DefaultErrorLoop      = 3
	DefaultRepeatedTurns  = 2
	DefaultOpeningWords   = 8
	DefaultOpeningMinRows = 20
)

// WithDefaults returns c with every zero field set to its default.
func (c HygieneConfig) WithDefaults() HygieneConfig {
	c.RepeatedCells = orDefault(c.RepeatedCells, DefaultRepeatedCells)
	c.ErrorLoop = orDefault(c.ErrorLoop, DefaultErrorLoop)
	c.RepeatedTurns = orDefault(c.RepeatedTurns, DefaultRepeatedTurns)
	c.OpeningWords = orDefault(c.OpeningWords, DefaultOpeningWords)
	c.OpeningMinRows = orDefault(c.OpeningMinRows, DefaultOpeningMinRows)
	return c
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// validate reports a hygiene setting that cannot work.
func (c HygieneConfig) validate() error {
	for _, k := range []struct {
		key string
		v   int
	}{{"repeated_cells", c.RepeatedCells}, {"error_loop", c.ErrorLoop}, {"repeated_turns", c.RepeatedTurns}} {
		if k.v == 1 {
			return fmt.Errorf("filters.hygiene.%s 1: every trajectory has one of anything; want 2 or more, or -1 to turn the check off", k.key)
		}
	}
	if c.OpeningWords < 0 || c.OpeningMinRows < 0 {
		return fmt.Errorf("filters.hygiene: opening_words %d and opening_min_rows %d must not be negative", c.OpeningWords, c.OpeningMinRows)
	}
	if c.MaxOpeningShare < 0 || c.MaxOpeningShare > 1 {
		return fmt.Errorf("filters.hygiene.max_opening_share %g: want a share in (0, 1], or 0 to only measure", c.MaxOpeningShare)
	}
	return nil
}

// Defects is what the hygiene checks found in one trajectory: the longest
// run of identical consecutive cells, the most repeated error and the most
// repeated assistant turn, each with what repeated.
type Defects struct {
	CellRun     int
	Cell        string
	ErrorRepeat int
	Error       string
	TurnRepeat  int
	Turn        string
}

// Inspect measures tr's repeats. Code is compared with surrounding
// whitespace trimmed, errors by the last non-empty line of a failed cell's
// output, assistant turns by their text and tool calls, trimmed; empty
// cells and turns are not counted.
func Inspect(tr *schemas.Trajectory) Defects {
	var d Defects
	run, prev := 0, ""
	errs := map[string]int{}
	for _, s := range tr.Steps {
		code := strings.TrimSpace(s.Code)
		switch {
		case code == "":
			run = 0
		case code == prev:
			run++
		default:
			run = 1
		}
		prev = code
		if run > d.CellRun {
			d.CellRun, d.Cell = run, code
		}
		if s.Status != schemas.StatusOK {
			e := lastLine(s.Observation)
			if e == "" {
				e = s.Status
			}
			if errs[e]++; errs[e] > d.ErrorRepeat {
				d.ErrorRepeat, d.Error = errs[e], e
			}
		}
	}
	turns := map[string]int{}
	for _, m := range tr.Messages {
		if m.Role != schemas.RoleAssistant {
			continue
		}
		t := turnText(m)
		if t == "" {
			continue
		}
		if turns[t]++; turns[t] > d.TurnRepeat {
			d.TurnRepeat, d.Turn = turns[t], t
		}
	}
	return d
}

// turnText is an assistant turn as compared for repeats: its text and
// each call's code.
func turnText(m schemas.Message) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(m.Content))
	for _, c := range m.ToolCalls {
		b.WriteString("\x00" + c.Name + "\x00" + strings.TrimSpace(c.Arguments))
	}
	return b.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// Opening is the first n words of tr's first assistant turn, lower-cased:
// the unit of the templated-openings measure ("" when it has none).
func Opening(tr *schemas.Trajectory, n int) string {
	for _, m := range tr.Messages {
		if m.Role == schemas.RoleAssistant {
			w := strings.Fields(strings.ToLower(m.Content))
			return strings.Join(w[:min(n, len(w))], " ")
		}
	}
	return ""
}

// Hygiene is the hygiene gate of one build: it measures every trajectory
// it checks, drops those over the thresholds, and counts openings among
// the rows kept. It is not safe for concurrent use.
type Hygiene struct {
	cfg      HygieneConfig
	report   schemas.HygieneReport
	openings map[string]int64
}

// NewHygiene returns the gate cfg's hygiene section configures.
func NewHygiene(cfg Config) *Hygiene {
	c := cfg.Hygiene.WithDefaults()
	return &Hygiene{cfg: c, openings: map[string]int64{}, report: schemas.HygieneReport{
		RepeatedCellsAt: abs(c.RepeatedCells), ErrorLoopAt: abs(c.ErrorLoop), RepeatedTurnsAt: abs(c.RepeatedTurns),
		OpeningWords: c.OpeningWords, MaxOpeningShare: c.MaxOpeningShare,
	}}
}

func abs(n int) int { return max(n, -n) }

// Check measures tr and returns whether it is kept, or the first reason it
// is dropped for, with what repeated. Every defect is counted in the
// report, whether or not its check is on or another dropped tr first.
func (h *Hygiene) Check(tr *schemas.Trajectory) (ok bool, reason, detail string) {
	d := Inspect(tr)
	r := &h.report
	r.Checked++
	cells := d.CellRun >= r.RepeatedCellsAt
	loop := d.ErrorRepeat >= r.ErrorLoopAt
	turns := d.TurnRepeat >= r.RepeatedTurnsAt
	r.RepeatedCells += b2i(cells)
	r.ErrorLoops += b2i(loop)
	r.RepeatedTurns += b2i(turns)
	switch {
	case cells && h.cfg.RepeatedCells > 0:
		return false, ReasonRepeatedCell, fmt.Sprintf("%d identical cells in a row: %s", d.CellRun, clip(d.Cell, 60))
	case loop && h.cfg.ErrorLoop > 0:
		return false, ReasonErrorLoop, fmt.Sprintf("the same error %d times: %s", d.ErrorRepeat, clip(d.Error, 60))
	case turns && h.cfg.RepeatedTurns > 0:
		return false, ReasonRepeatedTurn, fmt.Sprintf("an assistant turn %d times: %s", d.TurnRepeat, clip(d.Turn, 60))
	}
	if op, kept := Opening(tr, h.cfg.OpeningWords), r.Kept; h.cfg.MaxOpeningShare > 0 && op != "" &&
		kept >= int64(h.cfg.OpeningMinRows) && float64(h.openings[op]) >= h.cfg.MaxOpeningShare*float64(kept) {
		return false, ReasonTemplatedOpening, fmt.Sprintf("%d of %d kept rows open %q", h.openings[op], kept, clip(op, 60))
	}
	return true, "", ""
}

// Keep counts tr among the rows kept: its opening enters the
// templated-openings measure. Call it for every row the build keeps, after
// every filter.
func (h *Hygiene) Keep(tr *schemas.Trajectory) {
	r := &h.report
	r.Kept++
	op := Opening(tr, h.cfg.OpeningWords)
	h.openings[op]++
	if n := h.openings[op]; n > r.TopOpeningRows || (n == r.TopOpeningRows && op < r.TopOpening) {
		r.TopOpening, r.TopOpeningRows = op, n
	}
}

// Report returns the rates so far.
func (h *Hygiene) Report() schemas.HygieneReport { return h.report }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
