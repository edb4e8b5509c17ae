package schemas

// HygieneReport is what the hygiene gate measured over a build's
// trajectories, as the dataset card, stats.json and run.json give it.
// Checked trajectories are those that reached the gate (they passed
// verification and the quality gates); each defect is counted whether or
// not its check drops rows, so a rate is the defect's share of Checked.
type HygieneReport struct {
	Checked int64 `json:"checked"`
	// RepeatedCells counts trajectories with RepeatedCellsAt identical
	// consecutive code cells or more; ErrorLoops those with one error
	// ErrorLoopAt times or more; RepeatedTurns those with an assistant turn
	// RepeatedTurnsAt times or more.
	RepeatedCells   int64 `json:"repeated_cells"`
	ErrorLoops      int64 `json:"error_loops"`
	RepeatedTurns   int64 `json:"repeated_turns"`
	RepeatedCellsAt int   `json:"repeated_cells_at"`
	ErrorLoopAt     int   `json:"error_loop_at"`
	RepeatedTurnsAt int   `json:"repeated_turns_at"`
	// Kept is the rows the build kept; TopOpening is the most common opening
	// (the first OpeningWords words of the first assistant turn, lower-cased)
	// among them, and TopOpeningRows how many rows have it.
	Kept            int64   `json:"kept"`
	OpeningWords    int     `json:"opening_words"`
	TopOpening      string  `json:"top_opening,omitempty"`
	TopOpeningRows  int64   `json:"top_opening_rows"`
	MaxOpeningShare float64 `json:"max_opening_share,omitempty"` // 0: measured, not capped
}

// Rate is n over the checked trajectories (0 when none were).
func (h *HygieneReport) Rate(n int64) float64 {
	if h.Checked == 0 {
		return 0
	}
	return float64(n) / float64(h.Checked)
}

// TopOpeningShare is the share of kept rows that have the most common
// opening (0 when none were kept).
func (h *HygieneReport) TopOpeningShare() float64 {
	if h.Kept == 0 {
		return 0
	}
	return float64(h.TopOpeningRows) / float64(h.Kept)
}
