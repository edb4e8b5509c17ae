package pipeline

import (
	"fmt"
	"io"

	"synth/config"
	"synth/runinfo"
	"synth/sandbox"
)

// taskMaker owns the generate stage of a run: it writes the tasks for the
// collected files (templates or the LLM writer), proves them in the sandbox
// when asked, records the writer's counts and the files that got no task,
// and writes tasks.jsonl, tasks.report.md and drafts_dropped.jsonl. It holds
// the run's pieces it uses; the run keeps owning each of them.
type taskMaker struct {
	cfg   config.Config
	dir   string // the run directory, where the stage's files go
	work  string // where the LLM writer's response cache lives
	info  *runinfo.RunInfo
	sum   *Summary
	log   io.Writer
	tasks *taskStore // the journal the tasks are read back from, slim
	llm   *endpoint  // the LLM writer's endpoint
	// sandbox is the run's sandbox backend, started on first use.
	sandbox func() (sandbox.Backend, error)
	// dropped are the tasks the proof dropped, id -> reason and why, for
	// tasks.report.md.
	dropped map[string]string
}

// newTaskMaker is the task maker of r, an opened run (r.info is read now).
func newTaskMaker(r *builder) *taskMaker {
	return &taskMaker{cfg: r.cfg, dir: r.dir, work: r.work, info: r.info, sum: r.sum, log: r.log,
		tasks: &r.tasks, llm: r.llm, sandbox: r.sandbox}
}

func (m *taskMaker) logf(format string, args ...any) { fmt.Fprintf(m.log, format+"\n", args...) }
