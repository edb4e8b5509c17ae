package schemas

import "testing"

// TestCostReportCountsEveryTry: a retried rollout's earlier tries count in
// its cost, and the sandbox CPU is priced into the cost per kept row.
func TestCostReportCountsEveryTry(t *testing.T) {
	var c CostReport
	c.Add(&Trajectory{Usage: Usage{CostUSD: 0.5, SandboxCPUMS: 3_600_000}})
	c.Add(&Trajectory{Attempt: 3, Usage: Usage{CostUSD: 0.25, SandboxCPUMS: 1000}, EarlierUsage: &Usage{CostUSD: 0.25, SandboxCPUMS: 3_599_000}})
	c.Finish(2, 4)
	if c.Rollouts != 2 || c.Attempts != 4 || c.LLMUSD != 1 || c.SandboxCPUSeconds != 7200 {
		t.Fatalf("cost %+v: want 2 rollouts in 4 tries, $1 LLM, 7200 CPU seconds", c)
	}
	if c.SandboxUSD != 4 || c.TotalUSD != 5 || c.PerKeptRowUSD == nil || *c.PerKeptRowUSD != 1.25 {
		t.Fatalf("cost %+v: want $4 of sandbox, $5 in all, $1.25 a row", c)
	}
	c.Finish(2, 0)
	if c.PerKeptRowUSD != nil {
		t.Error("a cost per row with no row kept")
	}
}
