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

// CostReport is what a build's rows cost, over every attempt: the
// teacher's LLM dollars and the sandbox CPU of every training rollout,
// failed, retried and dropped ones included, priced at CPUHourUSD, over
// the rows kept.
type CostReport struct {
	Rollouts          int64   `json:"rollouts"` // training rollouts recorded
	Attempts          int64   `json:"attempts"` // their tries, infrastructure retries included
	LLMUSD            float64 `json:"llm_usd"`
	SandboxCPUSeconds float64 `json:"sandbox_cpu_seconds"`
	CPUHourUSD        float64 `json:"cpu_hour_usd"`
	SandboxUSD        float64 `json:"sandbox_usd"`
	TotalUSD          float64 `json:"total_usd"`
	Kept              int64   `json:"kept"`
	// PerKeptRowUSD is TotalUSD over Kept; absent when no row was kept.
	PerKeptRowUSD *float64 `json:"per_kept_row_usd,omitempty"`
}

// Add counts one training rollout: its usage and that of its earlier
// tries.
func (c *CostReport) Add(tr *Trajectory) {
	c.Rollouts++
	c.Attempts += int64(max(tr.Attempt, 1))
	u := tr.Usage
	if tr.EarlierUsage != nil {
		u.Add(*tr.EarlierUsage)
	}
	c.LLMUSD += u.CostUSD
	c.SandboxCPUSeconds += float64(u.SandboxCPUMS) / 1000
}

// Finish prices the sandbox CPU at cpuHourUSD and divides the total by
// the kept rows.
func (c *CostReport) Finish(cpuHourUSD float64, kept int64) {
	c.CPUHourUSD, c.Kept = cpuHourUSD, kept
	c.SandboxUSD = c.SandboxCPUSeconds / 3600 * cpuHourUSD
	c.TotalUSD = c.LLMUSD + c.SandboxUSD
	c.PerKeptRowUSD = nil
	if kept > 0 {
		v := c.TotalUSD / float64(kept)
		c.PerKeptRowUSD = &v
	}
}

// YieldStage is one step of a build's yield: how many items reached it,
// and what they are.
type YieldStage struct {
	Stage string `json:"stage"` // files, tasks, proven, rolled_out, passed, kept
	Count int64  `json:"count"`
	Note  string `json:"note,omitempty"`
}
