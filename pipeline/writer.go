package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"synth/dataset"
	"synth/generators/writer"
	"synth/rundir"
)

// WriterCounts is what became of the LLM writer's drafts, as run.json and
// the summary report it.
type WriterCounts struct {
	Model string `json:"model"`
	// Proof says what ran in the sandbox before a task counted.
	Proof string `json:"proof"`
	writer.Stats
}

// recordWriter keeps the writer's counts in run.json and the summary, logs
// and journals each dropped draft, and adds the write line to the funnel.
func (m *taskMaker) recordWriter(w *writer.Generator, proof string) error {
	st := w.Stats()
	wc := &WriterCounts{Model: w.Model(), Proof: proof, Stats: st}
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
	if err := m.info.save(m.dir); err != nil {
		return err
	}
	m.sum.addWriter(wc)
	return nil
}

// addWriter puts the writer's counts in the summary.
func (s *Summary) addWriter(wc *WriterCounts) {
	s.Writer = wc
	s.add("write", wc.Drafts, wc.Kept, "tasks written by llm:%s; %s", wc.Model, wc.Note())
}

// Note is the counts as one line: how tasks were proven, repaired and
// dropped.
func (wc *WriterCounts) Note() string {
	if wc.Proof == "" {
		return "not proven in the sandbox; " + wc.CountsNote()
	}
	return wc.CountsNote() + "; proof: " + wc.Proof
}

// CountsNote is the repaired, dropped and failed counts as one line.
func (wc *WriterCounts) CountsNote() string {
	var parts []string
	parts = append(parts, fmt.Sprintf("%d proven, %d repaired", wc.Proven, wc.Repaired))
	if wc.Proven > 0 {
		p := fmt.Sprintf("%d also on perturbed inputs", wc.Perturbed)
		if len(wc.Unperturbed) > 0 {
			p += " (not perturbed: " + countsNote(wc.Unperturbed) + ")"
		}
		parts = append(parts, p)
	}
	dropped := "none"
	if len(wc.Dropped) > 0 {
		dropped = countsNote(wc.Dropped)
	}
	parts = append(parts, "dropped: "+dropped)
	parts = append(parts, fmt.Sprintf("%d failed requests", wc.Failed))
	if wc.Failed > 0 {
		parts[len(parts)-1] += " (run the same command again to redo them)"
	}
	return strings.Join(parts, "; ")
}

// tasksCard is the card's account of how the tasks were written (wc, the
// LLM writer's counts; nil: templates) and proven.
func tasksCard(wc *WriterCounts, cfg TasksConfig) *dataset.TasksCard {
	if wc != nil {
		return &dataset.TasksCard{Writer: "llm:" + wc.Model, Proof: wc.Proof, Drafts: wc.Drafts, Kept: wc.Kept,
			Proven: wc.Proven, Repaired: wc.Repaired, Dropped: wc.Dropped, FailedRequests: wc.Failed}
	}
	tc := &dataset.TasksCard{Writer: "template"}
	if cfg.Validate {
		tc.Proof = templateProof
	}
	return tc
}
