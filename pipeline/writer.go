package pipeline

import (
	"fmt"
	"os"
	"path/filepath"

	"synth/config"
	"synth/dataset"
	"synth/generators/writer"
	"synth/proof"
	"synth/rundir"
	"synth/runinfo"
)

// recordWriter keeps the writer's counts in run.json and the summary, logs
// and journals each dropped draft, and adds the write line to the funnel.
func (m *taskMaker) recordWriter(w *writer.Generator, proofDoc string) error {
	st := w.Stats()
	wc := &runinfo.WriterCounts{Model: w.Model(), Proof: proofDoc, Stats: st}
	for _, d := range st.Drops {
		m.logf("generate: dropped draft %s of %s: %s: %s", d.Task, d.File, d.Reason, d.Detail)
	}
	path := filepath.Join(m.dir, rundir.DraftsDropped)
	os.Remove(path)
	j, err := rundir.OpenJournal(path)
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	for _, d := range st.Drops {
		if err := j.Append(d); err != nil {
			j.Close()
			return fmt.Errorf("generate: %w", err)
		}
	}
	if err := j.Close(); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	m.info.Writer = wc
	if g := w.Grader(); g.Tasks > 0 {
		m.info.Grader = graderRows(map[string]proof.Tally{"llm": g})
	}
	if err := m.info.Save(m.dir); err != nil {
		return err
	}
	m.sum.addWriter(wc)
	return nil
}

// tasksCard is the card's account of how the tasks were written (wc, the
// LLM writer's counts; nil: templates) and proven.
func tasksCard(wc *runinfo.WriterCounts, cfg config.TasksConfig, grader []dataset.GraderRow) *dataset.TasksCard {
	if wc != nil {
		return &dataset.TasksCard{Writer: "llm:" + wc.Model, Proof: wc.Proof, Drafts: wc.Drafts, Kept: wc.Kept,
			Proven: wc.Proven, Repaired: wc.Repaired, Dropped: wc.Dropped, FailedRequests: wc.Failed, Grader: grader}
	}
	tc := &dataset.TasksCard{Writer: "template", Grader: grader}
	if cfg.Validate {
		tc.Proof = templateProof
	}
	return tc
}

// templateProof is what --validate-tasks runs for a task with a reference.
const templateProof = "the reference passes; the empty rollout, every adversary and the battery of wrong solutions made from the reference (output tables with wrong values, the answer's numbers zeroed, off or swapped, the answer from perturbed inputs) fail; a mutated reference fails where its template defines one"
