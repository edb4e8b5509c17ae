package bench

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"synth/agent"
	"synth/checks"
	"synth/proof"
	"synth/sandbox"
	"synth/schemas"
)

// The variant split's layout inside a benchmark folder.
const (
	// VariantDir is the variant split: a benchmark of its own, in the same
	// PyBench layout, whose tasks are the twins of the benchmark's tasks
	// on perturbed inputs, under the same indexes.
	VariantDir = "variant"
	// VariantsFile (in VariantDir) holds one VariantRecord per task of
	// the benchmark: its twin, whether its truth moved, or why it has none.
	VariantsFile = "variants.jsonl"
	// VariantReport (in VariantDir) says the same for people, and flags
	// the tasks whose truth did not move.
	VariantReport = "VARIANTS.md"
	// StaleFile (in VariantDir) is a replay file (PyBench's trajectory
	// format) of a stale solver: for each twin, the original reference's
	// outputs written as they were and its original answer.
	StaleFile = "stale_trajectories.jsonl"
)

// maxVariantsBytes bounds the VariantsFile a benchmark may hold.
const maxVariantsBytes = 64 << 20

// maxStaleBytes bounds the outputs a stale trajectory carries inline.
const maxStaleBytes = 4 << 20

// VariantRecord is one line of VariantsFile.
type VariantRecord struct {
	Index  string `json:"index"`
	TaskID string `json:"task_id"`
	// TwinID is the twin's task id; empty when there is no twin.
	TwinID string `json:"twin_id,omitempty"`
	// Moved: the original's answer and outputs fail the twin's checks.
	Moved bool `json:"moved"`
	// Skipped says why the task has no twin.
	Skipped string `json:"skipped,omitempty"`
}

// VariantSummary is what MakeVariants did.
type VariantSummary struct {
	Tasks, Twins, Moved int
	Dir                 string
	Records             []VariantRecord
}

// Unmoved is the number of twins whose truth did not move.
func (s VariantSummary) Unmoved() int { return s.Twins - s.Moved }

// MakeVariants writes dir's variant split into dir/VariantDir, replacing
// one that is there: each task with a reference gets a twin made by
// proof.MakeVariant in sandboxes from b (inputs perturbed by the battery's
// rules, the reference rerun on them, its truth re-derived from that run
// and proven). Tasks without a twin, and twins whose truth did not move,
// are listed in VariantReport. log gets a line per task.
func MakeVariants(ctx context.Context, b sandbox.Backend, dir string, log io.Writer) (VariantSummary, error) {
	sum := VariantSummary{Dir: filepath.Join(dir, VariantDir)}
	tasks, err := Load(dir)
	if err != nil {
		return sum, err
	}
	store, err := os.MkdirTemp("", "synth-variants-")
	if err != nil {
		return sum, fmt.Errorf("variants: %w", err)
	}
	defer os.RemoveAll(store)
	var entries []Entry
	var stale []pybenchTrajectory
	names := map[string]string{} // data name -> file id, across twins
	made := map[string]string{}  // input name -> its perturbed copy
	for i := range tasks {
		t := &tasks[i]
		rec := VariantRecord{Index: t.Index, TaskID: t.ID}
		v, err := variantOf(ctx, b, dir, t, store, made)
		if err != nil {
			return sum, fmt.Errorf("variants: task %s: %w", t.Index, err)
		}
		if v.Skipped == "" {
			v.Skipped = clash(names, v.Task.Files)
		}
		if v.Skipped != "" {
			rec.Skipped = v.Skipped
		} else {
			rec.TwinID, rec.Moved = v.Task.ID, v.Moved
			entries = append(entries, Entry{Task: v.Task, Inputs: v.Inputs})
			if tr, err := staleTrajectory(t.Index, v.Original, v.OriginalPrinted); err == nil {
				stale = append(stale, tr)
			}
			sum.Twins++
			if v.Moved {
				sum.Moved++
			}
		}
		sum.Records = append(sum.Records, rec)
		fmt.Fprintf(log, "variants: task %s: %s\n", t.Index, recordLine(rec))
	}
	sum.Tasks = len(tasks)
	if err := Write(sum.Dir, entries, Info{SourceRun: "the variant split of " + dir,
		Validated: "each twin's reference (the original's code rerun on the perturbed inputs) passes its checks and an empty rollout fails them, in the sandbox"}); err != nil {
		return sum, err
	}
	if err := writeJSONL(filepath.Join(sum.Dir, VariantsFile), sum.Records); err != nil {
		return sum, err
	}
	if err := writeJSONL(filepath.Join(sum.Dir, StaleFile), stale); err != nil {
		return sum, err
	}
	if err := os.WriteFile(filepath.Join(sum.Dir, VariantReport), []byte(variantReport(sum)), 0o644); err != nil {
		return sum, fmt.Errorf("variants: %w", err)
	}
	return sum, nil
}

// variantOf makes t's twin from the benchmark's data/.
func variantOf(ctx context.Context, b sandbox.Backend, dir string, t *schemas.Task, store string, made map[string]string) (proof.Variant, error) {
	if err := Usable(dir, t); err != nil {
		return proof.Variant{Skipped: err.Error()}, nil
	}
	in := make([]sandbox.Input, len(t.Files))
	for i, f := range t.Files {
		in[i] = sandbox.Input{Name: f.Name, Root: filepath.Join(dir, DataDir), Path: f.Name}
	}
	return proof.MakeVariant(ctx, b, t, in, store, made)
}

// clash says why twin files cannot join the split: one of its names is
// another twin's file already, with other content. Otherwise it records
// the names.
func clash(names map[string]string, files []schemas.TaskFile) string {
	for _, f := range files {
		if id, ok := names[f.Name]; ok && id != f.ID {
			return fmt.Sprintf("its perturbed data/%s differs from another twin's file of that name", f.Name)
		}
	}
	for _, f := range files {
		names[f.Name] = f.ID
	}
	return ""
}

func recordLine(r VariantRecord) string {
	switch {
	case r.Skipped != "":
		return "no twin: " + r.Skipped
	case r.Moved:
		return "twin " + r.TwinID + ", truth moved"
	}
	return "twin " + r.TwinID + ", truth did NOT move"
}

// staleTrajectory is a stale solution of a twin in PyBench's trajectory
// format: one cell that writes the original reference's outputs as they
// were and prints what it printed, then its original answer.
func staleTrajectory(index string, orig checks.Case, printed string) (pybenchTrajectory, error) {
	var code strings.Builder
	code.WriteString("import base64, os\n")
	total := 0
	for _, f := range orig.Files {
		if !strings.HasPrefix(f.Name, "output/") {
			continue
		}
		b, err := readInput(f)
		if err != nil {
			return pybenchTrajectory{}, err
		}
		if total += len(b); total > maxStaleBytes {
			return pybenchTrajectory{}, fmt.Errorf("outputs over %d bytes", maxStaleBytes)
		}
		fmt.Fprintf(&code, "os.makedirs(os.path.dirname(%q), exist_ok=True)\nopen(%q, 'wb').write(base64.b64decode(%q))\n",
			"./"+f.Name, "./"+f.Name, base64.StdEncoding.EncodeToString(b))
	}
	if len(printed) > maxStaleBytes {
		printed = printed[len(printed)-maxStaleBytes:]
	}
	fmt.Fprintf(&code, "print(%s)", pyString(printed))
	f := agent.NewPyBench()
	return pybenchTrajectory{Index: index, Messages: []schemas.Message{
		f.Render(agent.Action{Code: code.String()}, "Write the answer from before."),
		f.Render(agent.Action{Finished: true, Answer: orig.Answer}, ""),
	}}, nil
}

func readInput(in sandbox.Input) ([]byte, error) {
	p := in.Path
	if in.Root != "" {
		p = filepath.Join(in.Root, in.Path)
	}
	return os.ReadFile(p)
}

// variantReport is VariantReport's text.
func variantReport(s VariantSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Variant split\n\n%d tasks; %d have a twin on perturbed inputs (%s); the truth moved in %d of them.\n\n",
		s.Tasks, s.Twins, proof.PerturbRules, s.Moved)
	b.WriteString("A twin's answer is what the original's reference code printed when rerun on the perturbed inputs; its checks' literal values are re-derived from that printout, and the twin is proven (its reference passes, an empty rollout fails) before it is kept. `" + StaleFile + "` replays each original answer on its twin: score it with `synth eval --bench " + VariantDir + " --teacher replay --trajectories " + VariantDir + "/" + StaleFile + "`.\n\n")
	var unmoved, skipped []VariantRecord
	for _, r := range s.Records {
		switch {
		case r.Skipped != "":
			skipped = append(skipped, r)
		case !r.Moved:
			unmoved = append(unmoved, r)
		}
	}
	fmt.Fprintf(&b, "## Flagged: truth did not move (%d)\n\n", len(unmoved))
	if len(unmoved) == 0 {
		b.WriteString("None.\n")
	} else {
		b.WriteString("The original's answer and outputs still pass these twins' checks: nothing they judge depends on the perturbed data.\n\n| task | twin |\n|---|---|\n")
		for _, r := range unmoved {
			fmt.Fprintf(&b, "| %s | %s |\n", r.Index, r.TwinID)
		}
	}
	fmt.Fprintf(&b, "\n## No twin (%d)\n\n", len(skipped))
	if len(skipped) > 0 {
		b.WriteString("| task | why |\n|---|---|\n")
		for _, r := range skipped {
			fmt.Fprintf(&b, "| %s | %s |\n", r.Index, cell(r.Skipped, 200))
		}
	}
	return b.String()
}

// Variants reads a benchmark's VariantsFile; ok is false when the
// benchmark has no variant split.
func Variants(dir string) (recs []VariantRecord, ok bool, err error) {
	p := filepath.Join(dir, VariantDir, VariantsFile)
	st, err := os.Lstat(p)
	if err != nil {
		return nil, false, nil
	}
	if !st.Mode().IsRegular() || st.Size() > maxVariantsBytes {
		return nil, true, fmt.Errorf("bench %s: %s/%s is not a regular file of at most %d bytes; run synth bench variants %s again", dir, VariantDir, VariantsFile, maxVariantsBytes, dir)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, true, fmt.Errorf("bench %s: %w", dir, err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	for dec.More() {
		var r VariantRecord
		if err := dec.Decode(&r); err != nil {
			return nil, true, fmt.Errorf("bench %s: %s/%s record %d: %w", dir, VariantDir, VariantsFile, len(recs)+1, err)
		}
		recs = append(recs, r)
	}
	return recs, true, nil
}

// pyString is s as a Python string literal (JSON's escapes are Python's).
func pyString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
