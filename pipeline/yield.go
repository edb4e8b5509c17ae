package pipeline

import (
	"fmt"

	"synth/filters"
	"synth/schemas"
)

// yieldOf is the build's yield from its funnel: files collected, training
// tasks written, tasks that entered the rollouts (proven: a template's
// expected values come from running its reference in the sandbox, an LLM
// writer's tasks passed their proof, and none duplicates another or
// overlaps the benchmark), rollouts that finished, rollouts that passed
// their checks, and rows kept.
func yieldOf(stages []filters.StageCount, writer string) []schemas.YieldStage {
	at := map[string]filters.StageCount{}
	for _, s := range stages {
		at[s.Name] = s
	}
	bench := at[stageBenchValidate]
	proven := "training tasks past dedup and decontamination, each proven: expected values from running its reference in the sandbox"
	if writer != "" {
		proven = "training tasks past dedup and decontamination, proven as the LLM writer's proof says: " + writer
	}
	kept := int64(0)
	if len(stages) > 0 {
		kept = stages[len(stages)-1].Out
	}
	return []schemas.YieldStage{
		{Stage: "files", Count: at[stageFiles].In, Note: fmt.Sprintf("collected; %d got a task", at[stageFiles].Out)},
		{Stage: "tasks", Count: at[filters.StageDedup].In, Note: fmt.Sprintf("training tasks; %d more held out for the benchmark, %d of them proven", bench.In, bench.Out)},
		{Stage: "proven", Count: at[filters.StageDecon].Out, Note: proven},
		{Stage: "rolled_out", Count: at[filters.StageRollout].Out, Note: fmt.Sprintf("rollouts finished, of %d played (the rest lost to infrastructure failures after retries)", at[filters.StageRollout].In)},
		{Stage: "passed", Count: at[filters.StageVerify].Out, Note: "rollouts that passed their checks"},
		{Stage: "kept", Count: kept, Note: "rows after the quality and hygiene gates and dedup"},
	}
}
