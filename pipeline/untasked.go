package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"synth/generators"
	"synth/generators/template"
	"synth/generators/writer"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

// Why a file got no task, beyond what the generator says (generators.Reason*).
const (
	reasonInvalidChecks    = "invalid_checks"     // every task written for it had checks that do not validate
	reasonDroppedByProof   = "dropped_by_proof"   // every task written for it failed its proof (tasks.validate, or the benchmark's)
	reasonDraftsDropped    = "drafts_dropped"     // the LLM writer dropped every draft for it
	reasonDroppedByFilters = "dropped_by_filters" // dedup and decontamination dropped its every training task
	reasonDroppedBySplit   = "dropped_by_split"   // the split dropped its every task
	reasonNoTaskWritten    = "no_task_written"    // the writer wrote nothing for it and says not why
)

// untaskedFiles lists the collected files no kept task reads, in
// collection order, each with why: what dropped the tasks written for it
// (made: before checks were validated; valid: after), else the reason the
// generator gives, else the LLM writer's drops for it.
func untaskedFiles(fs *fileSet, gen generators.Generator, made, valid, kept []schemas.Task) []generators.Untasked {
	reads := func(ts []schemas.Task) map[string]int {
		m := map[string]int{}
		for _, t := range ts {
			for _, f := range t.Files {
				m[f.ID]++
			}
		}
		return m
	}
	inMade, inValid, inKept := reads(made), reads(valid), reads(kept)
	said := map[string]generators.Untasked{}
	if e, ok := gen.(generators.Explainer); ok {
		for _, u := range e.Untasked() {
			said[u.File.ID] = u
		}
	}
	drafts := map[string][]string{} // file name -> the writer's drop reasons
	if w, ok := gen.(*writer.Generator); ok {
		for _, d := range w.Stats().Drops {
			if !slices.Contains(drafts[d.File], d.Reason) {
				drafts[d.File] = append(drafts[d.File], d.Reason)
			}
		}
	}
	var un []generators.Untasked
	for _, id := range fs.order {
		if inKept[id] > 0 {
			continue
		}
		f := fs.byID[id]
		u := generators.Untasked{File: f}
		switch {
		case inValid[id] > 0:
			u.Reason, u.Detail = reasonDroppedByProof, fmt.Sprintf("its %d tasks failed their proof (the log names each)", inValid[id])
		case inMade[id] > 0:
			u.Reason, u.Detail = reasonInvalidChecks, fmt.Sprintf("its %d tasks had checks that do not validate (the log names each)", inMade[id])
		case said[id].Reason != "":
			u = said[id]
		case len(drafts[f.Name]) > 0:
			u.Reason, u.Detail = reasonDraftsDropped, "the writer dropped its drafts: "+strings.Join(drafts[f.Name], ", ")
		default:
			u.Reason, u.Detail = reasonNoTaskWritten, "the writer wrote no task for it"
		}
		un = append(un, u)
	}
	return un
}

func untaskedRecords(un []generators.Untasked) []runinfo.UntaskedFile {
	out := make([]runinfo.UntaskedFile, 0, len(un))
	for _, u := range un {
		out = append(out, runinfo.UntaskedFile{ID: u.File.ID, Name: u.File.Name, Type: u.File.Type, Reason: u.Reason, Detail: u.Detail})
	}
	return out
}

// untaskedNote is the generate line's note on files without a task.
func untaskedNote(un []runinfo.UntaskedFile) string {
	if len(un) == 0 {
		return ""
	}
	by := map[string]int{}
	for _, u := range un {
		by[u.Reason]++
	}
	return fmt.Sprintf("; %d files without a task (%s: %s names them)", len(un), runinfo.CountsNote(by), rundir.TasksReport)
}

// countFiles counts the run's files in the funnel's first stage, once the
// plan is made: a file passes when a training task left after the filters
// (train) or a proven benchmark task (validBench) reads it. A file that
// got no task is dropped with the generator's reason (run.json's
// Untasked); one whose tasks were all dropped, with what dropped them: the
// benchmark's proof (bench: the benchmark's tasks before it), the training
// filters (split: the files the training tasks read before them), else the
// split. Those last files are added to tasks.report.md's list and the log.
func (r *builder) countFiles(fn *funnel, fs *fileSet, split map[string]bool, train []slimTask, bench, validBench []schemas.Task) error {
	why := map[string]runinfo.UntaskedFile{}
	for _, u := range r.info.Untasked {
		why[u.ID] = u
	}
	kept := map[string]bool{}
	for i := range train {
		for _, f := range train[i].meta.Files {
			kept[f.ID] = true
		}
	}
	proofs := map[string]int{}
	for _, t := range bench {
		for _, f := range t.Files {
			proofs[f.ID]++
		}
	}
	for _, t := range validBench {
		for _, f := range t.Files {
			kept[f.ID] = true
		}
	}
	var untasked []generators.Untasked
	for _, id := range fs.order {
		if kept[id] {
			fn.Pass(stageFiles)
			continue
		}
		u, ok := why[id]
		if !ok {
			f := fs.byID[id]
			u = runinfo.UntaskedFile{ID: id, Name: f.Name, Type: f.Type, Reason: reasonDroppedBySplit,
				Detail: "the split dropped its tasks (each another language of a benchmark task, or reading files from both sides)"}
			switch {
			case proofs[id] > 0:
				u.Reason, u.Detail = reasonDroppedByProof, fmt.Sprintf("its %d benchmark tasks failed their proof (%s in %s)", proofs[id], stageBenchValidate, rundir.Filtered)
			case split[id]:
				u.Reason, u.Detail = reasonDroppedByFilters, "dedup and decontamination dropped its training tasks ("+rundir.Filtered+" names each, with what it matched)"
			}
			r.logf("plan: file %s (%s) has no task left: %s", u.Name, u.Type, u.Detail)
		}
		untasked = append(untasked, generators.Untasked{File: schemas.File{ID: u.ID, Name: u.Name, Type: u.Type}, Reason: u.Reason, Detail: u.Detail})
		detail := u.Type + " " + u.ID[:min(12, len(u.ID))]
		if u.Detail != "" {
			detail += ": " + u.Detail
		}
		fn.Drop(stageFiles, u.Name, u.Reason, detail)
	}
	if len(untasked) == len(r.info.Untasked) || r.readOnly {
		return nil // tasks.report.md lists them all, or the plan's run wrote it
	}
	return rewriteUntasked(r.dir, append(untasked, notCollected(r.info.NotCollected)...))
}

// notCollected are run.json's files the collection left out, as the
// report lists them (without an ID).
func notCollected(files []runinfo.UntaskedFile) []generators.Untasked {
	out := make([]generators.Untasked, 0, len(files))
	for _, f := range files {
		out = append(out, generators.Untasked{File: schemas.File{Name: f.Name, Type: f.Type}, Reason: f.Reason, Detail: f.Detail})
	}
	return out
}

// rewriteUntasked replaces the list of files without a task in dir's
// tasks.report.md.
func rewriteUntasked(dir string, untasked []generators.Untasked) error {
	path := filepath.Join(dir, rundir.TasksReport)
	old, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	head, _, _ := strings.Cut(string(old), template.UntaskedHeading)
	if head+template.ReportUntasked(untasked) == string(old) {
		return nil
	}
	if err := os.WriteFile(path, []byte(head+template.ReportUntasked(untasked)), 0o644); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	return nil
}

// readFiles is the set of files tasks read.
func readFiles(tasks []slimTask) map[string]bool {
	m := map[string]bool{}
	for i := range tasks {
		for _, f := range tasks[i].meta.Files {
			m[f.ID] = true
		}
	}
	return m
}
