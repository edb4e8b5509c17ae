package filters

import (
	"strings"
	"testing"

	"synth/schemas"
)

// traj is a trajectory of cells (code, and "!err" for a cell that raised
// err) whose assistant turns say turns.
func traj(cells []string, turns ...string) *schemas.Trajectory {
	tr := &schemas.Trajectory{ID: "t"}
	for _, c := range cells {
		code, err, failed := strings.Cut(c, "!")
		s := schemas.Step{Code: code, Status: schemas.StatusOK, Observation: "ok"}
		if failed {
			s.Status, s.Observation = schemas.StatusError, "Traceback (most recent call last):\n  ...\n"+err+"\n"
		}
		tr.Steps = append(tr.Steps, s)
	}
	for _, t := range turns {
		tr.Messages = append(tr.Messages, schemas.Message{Role: schemas.RoleUser, Content: "go on"}, schemas.Message{Role: schemas.RoleAssistant, Content: t})
	}
	return tr
}

// TestHygieneCheck: each habit drops at its threshold and not below it,
// names what repeated, and is still counted when its check is off.
func TestHygieneCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    HygieneConfig
		tr     *schemas.Trajectory
		reason string
		count  func(schemas.HygieneReport) int64
	}{
		{"clean", HygieneConfig{}, traj([]string{"a=1", "b=2", "a=1"}, "one", "two", "Finished: 3"), "", nil},
		{"a cell twice in a row", HygieneConfig{}, traj([]string{"a=1", " a=1\n", "b=2"}, "one", "two", "Finished"), ReasonRepeatedCell,
			func(r schemas.HygieneReport) int64 { return r.RepeatedCells }},
		{"twice allowed at 3", HygieneConfig{RepeatedCells: 3, RepeatedTurns: -1}, traj([]string{"a=1", "a=1", "b=2"}, "one", "two", "Finished"), "", nil},
		{"three times at 3", HygieneConfig{RepeatedCells: 3}, traj([]string{"a=1", "a=1", "a=1"}, "one", "two", "Finished"), ReasonRepeatedCell, nil},
		{"the same error three times", HygieneConfig{}, traj([]string{"x!KeyError: 'p'", "y!KeyError: 'p'", "z!KeyError: 'p'", "w=1"}, "one", "two", "three", "Finished"), ReasonErrorLoop,
			func(r schemas.HygieneReport) int64 { return r.ErrorLoops }},
		{"two errors twice each", HygieneConfig{}, traj([]string{"x!KeyError: 'p'", "y!KeyError: 'q'", "z!KeyError: 'p'", "v!KeyError: 'q'"}, "one", "two", "Finished"), "", nil},
		{"loop check off", HygieneConfig{ErrorLoop: -1}, traj([]string{"x!E", "y!E", "z!E"}, "one", "Finished"), "",
			func(r schemas.HygieneReport) int64 { return r.ErrorLoops }},
		{"a turn repeated later", HygieneConfig{}, traj([]string{"a=1", "b=2"}, "Analyse: look", "other", "Analyse: look ", "Finished"), ReasonRepeatedTurn,
			func(r schemas.HygieneReport) int64 { return r.RepeatedTurns }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHygiene(Config{Hygiene: tc.cfg})
			ok, reason, detail := h.Check(tc.tr)
			if reason != tc.reason || ok != (tc.reason == "") {
				t.Fatalf("Check = %v %q (%s), want reason %q", ok, reason, detail, tc.reason)
			}
			if reason != "" && detail == "" {
				t.Errorf("%s drop names nothing", reason)
			}
			if tc.count != nil && tc.count(h.Report()) != 1 {
				t.Errorf("report %+v does not count the habit", h.Report())
			}
		})
	}
}

// TestHygieneOpenings: the most common opening's share among kept rows is
// measured, and past max_opening_share (once enough rows are kept) a row
// that opens alike is dropped.
func TestHygieneOpenings(t *testing.T) {
	h := NewHygiene(Config{Hygiene: HygieneConfig{OpeningWords: 2, MaxOpeningShare: 0.5, OpeningMinRows: 4}})
	opens := []string{"Load the data", "load THE csv", "Plot it", "Load the file", "Sum it", "Load the rows"}
	var dropped []int
	for i, o := range opens {
		tr := traj(nil, o, "Finished")
		if ok, reason, _ := h.Check(tr); !ok {
			if reason != ReasonTemplatedOpening {
				t.Fatalf("row %d dropped for %s", i, reason)
			}
			dropped = append(dropped, i)
			continue
		}
		h.Keep(tr)
	}
	r := h.Report()
	if len(dropped) != 1 || dropped[0] != 5 {
		t.Errorf("dropped rows %v, want [5]: the 6th row would make 'load the' 4 of 6", dropped)
	}
	if r.TopOpening != "load the" || r.TopOpeningRows != 3 || r.Kept != 5 {
		t.Errorf("report %+v, want 'load the' on 3 of 5", r)
	}
}

func TestHygieneConfigValidate(t *testing.T) {
	for _, c := range []HygieneConfig{{RepeatedCells: 1}, {ErrorLoop: 1}, {MaxOpeningShare: 1.5}, {OpeningWords: -1}} {
		if err := (Config{Hygiene: c}).Validate(); err == nil {
			t.Errorf("%+v validates", c)
		}
	}
	if err := (Config{Hygiene: HygieneConfig{RepeatedCells: -1, MaxOpeningShare: 0.3}}).Validate(); err != nil {
		t.Error(err)
	}
}
