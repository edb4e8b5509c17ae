package runinfo

import (
	"time"

	"synth/config"
	"synth/dataset"
	"synth/rundir"
	"synth/schemas"
)

// The stages run.json records as done.
const (
	StageCollect     = "collect"
	StageGenerate    = "generate"
	StageEmit        = "emit"
	StageValidate    = "validate"
	StageRollout     = "rollout"
	StageBenchFolder = "bench"
)

// RunInfo is run.json: what made the run directory and what it holds.
type RunInfo struct {
	ConfigHash string               `json:"config_hash"`
	Config     config.Config        `json:"config"`
	Version    string               `json:"synth_version"`
	Python     PythonInfo           `json:"python"`
	Started    time.Time            `json:"started"`
	Finished   time.Time            `json:"finished,omitzero"`
	Stages     map[string]time.Time `json:"stages"`           // stage -> when it completed
	Plan       string               `json:"plan,omitempty"`   // hash of plan.jsonl's tasks
	Shards     []ShardInfo          `json:"shards,omitempty"` // the shards a merge gathered
	Counts     map[string]int       `json:"counts"`
	// StageTimes is the last build's stages in order: start, end, CPU and
	// counts. A resumed build records what it did itself.
	StageTimes []schemas.StageTime `json:"stage_times,omitempty"`
	// Writer is the LLM writer's counts, from the run that wrote the tasks.
	Writer *WriterCounts `json:"writer,omitempty"`
	// Untasked are the collected files that got no task, with why, and
	// Templates the templates that could run, as name@version, when the
	// tasks were written (see newTemplates).
	Untasked  []UntaskedFile `json:"untasked,omitempty"`
	Templates []string       `json:"templates,omitempty"`
	// NotCollected are the files the collection left out (unreadable, too
	// large, empty, a type or license not wanted), with why, the first
	// sources.MaxRefused of each source; ID is empty.
	NotCollected []UntaskedFile `json:"not_collected,omitempty"`
	// Grader is how each generator's checks fared against the battery of
	// wrong solutions when the tasks were proven (the template tasks under
	// --validate-tasks; the LLM writer's always).
	Grader []dataset.GraderRow `json:"grader,omitempty"`
	// Reproduction is what the rows depend on to come out byte for byte
	// the same in another build.
	Reproduction *Reproduction `json:"reproduction,omitempty"`
	// Collected is every file the Kaggle and arXiv sources collected, at
	// the exact version of its dataset or paper, with its sha256.
	Collected []Collected `json:"collected,omitempty"`
	// Hygiene is what the hygiene gate measured over the last filter of the
	// trajectories.
	Hygiene *schemas.HygieneReport `json:"hygiene,omitempty"`
	// Cost is what the rows cost over every attempt, and Yield how many
	// items reached each step from files to kept rows, at the last emit.
	Cost  *schemas.CostReport  `json:"cost,omitempty"`
	Yield []schemas.YieldStage `json:"yield,omitempty"`
}

// Read reads dir's run.json; nil when there is none.
func Read(dir string) (*RunInfo, error) {
	var ri RunInfo
	if found, err := rundir.ReadRunInfo(dir, &ri); !found {
		return nil, err
	}
	return &ri, nil
}

// Save writes run.json atomically.
func (ri *RunInfo) Save(dir string) error { return rundir.WriteRunInfo(dir, ri) }

// Done reports whether stage is recorded as done.
func (ri *RunInfo) Done(stage string) bool { _, ok := ri.Stages[stage]; return ok }

// MarkDone records stage as done now and saves run.json.
func (ri *RunInfo) MarkDone(dir, stage string) error {
	ri.Stages[stage] = time.Now().UTC()
	return ri.Save(dir)
}

// UntaskedFile is a collected file without a task as run.json keeps it, so a
// resumed run names it in the funnel again.
type UntaskedFile struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Type   string `json:"type"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// StagePlan marks the run's plan (rundir.Plan) whole.
const StagePlan = "plan"
