package proof

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// batteryPy makes the battery's wrong tables and perturbed inputs in the
// sandbox (see its comments for the rules).
//
//go:embed battery.py
var batteryPy string

// Where the battery's files go under output/, apart from the solution's.
const (
	variantsDir = "output/.synth-battery/"
	staleDir    = "output/.synth-stale/"
	batteryMark = "\x1esynth-battery "
	// maxVariantTables bounds the output tables the battery copies.
	maxVariantTables = 4
)

// Wrong is one wrong solution of the battery: its name (the drop reason's
// detail and the grader's tally key) and the case its checks must reject.
type Wrong struct {
	Name string
	Case checks.Case
}

// Battery is the generic wrong solutions PlayBattery made from a played
// reference.
type Battery struct {
	Cases []Wrong
	// Unmoved is set when the inputs were perturbed and the reference,
	// rerun on them, gave the same answer and the same outputs (by
	// content where the checks judge content, else byte for byte):
	// nothing the checks judge depends on the perturbed data.
	Unmoved bool
	// StaleSkipped says why there is no stale case, when there is none
	// and the truth was not simply unmoved.
	StaleSkipped string
	// Skipped says why the battery's cell did not run (what the reference
	// left defeated it); the answer's neighbours are still made.
	Skipped string
	// StaleAnswer, when the answer's truth moved on perturbed inputs, is
	// the reference's answer as first given beside the rerun's outputs,
	// judged on the perturbed inputs: what a solver that ran its code on
	// those inputs and stated the old answer would leave. Checks that hold
	// the answer to a value recomputed from the inputs reject it; checks
	// that hold it to the value recorded when the task was written accept
	// it. Kept apart from Cases: the template proof plays it, the LLM
	// writer proves the same thing its own way (check_ignores_data).
	StaleAnswer *Wrong
}

// Battery case names.
const (
	StaleCase       = "stale"        // the reference's answer and outputs from perturbed inputs
	StaleAnswerCase = "stale_answer" // the reference's first answer beside its rerun's outputs, on perturbed inputs
)

// PlayBattery plays sol as Play does and, in the same sandbox, makes the
// battery of wrong solutions from it:
//   - right shape, wrong values: each output table with its numbers
//     zeroed or scaled, a column misaligned by a row, two columns of a
//     type swapped, the last row dropped, every cell emptied;
//   - neighbours of the answer: each expected number zeroed or moved off
//     by one (a tenth for a fraction), two expected numbers swapped;
//   - stale: the reference rerun on perturbed inputs (every third row or
//     line dropped, floats scaled by 1.5), its answer's numbers replaced
//     by what the rerun printed in their place, judged on the original
//     inputs. Made only where the truth moved.
//
// A case is made only where it differs from the reference in what a check
// judges. The battery is empty when a step of sol failed. The error is as
// Play's.
func PlayBattery(ctx context.Context, b sandbox.Backend, t *schemas.Task, sol *schemas.Reference, inputs []sandbox.Input, store string) (Played, Battery, error) {
	var p Played
	var bat Battery
	sb, err := b.Open(ctx, sandbox.Spec{Inputs: inputs})
	if err != nil {
		return p, bat, fmt.Errorf("open sandbox: %w", err)
	}
	defer sb.Close()
	if err := runSteps(ctx, sb, sol, &p); err != nil {
		return p, bat, err
	}
	var made struct {
		Variants map[string][]string `json:"variants"`
		Perturb  []struct {
			OK   bool   `json:"ok"`
			Skip string `json:"skip"`
		} `json:"perturb"`
	}
	var stalePrinted []string
	staleFailed := ""
	if p.Failed == "" {
		files, _ := json.Marshal(inputKinds(t, inputs))
		cell := batteryPy + fmt.Sprintf("\nimport json as _bj\nprint(%q + _bj.dumps({'variants': make_variants(%d), 'perturb': perturb(_bj.loads(%q), %q, keep=True, media=True)}))\n",
			batteryMark, maxVariantTables, files, staleDir+"data/{name}")
		res, err := sb.Exec(ctx, cell)
		if err != nil {
			return p, bat, fmt.Errorf("battery: %w", err)
		}
		// What the reference left may defeat the battery's reading; that
		// costs the task its battery, never the run.
		i := strings.LastIndex(res.Output, batteryMark)
		line := ""
		if i >= 0 {
			line, _, _ = strings.Cut(res.Output[i+len(batteryMark):], "\n")
		}
		if res.Status != schemas.StatusOK || i < 0 || json.Unmarshal([]byte(line), &made) != nil {
			bat.Skipped = fmt.Sprintf("the battery did not run (%s): %s", res.Status, LastLines(res.Output, 4))
		}
		perturbed := slices.ContainsFunc(made.Perturb, func(v struct {
			OK   bool   `json:"ok"`
			Skip string `json:"skip"`
		}) bool {
			return v.OK
		})
		if bat.Skipped != "" {
			bat.StaleSkipped = bat.Skipped
		} else if perturbed {
			stalePrinted, staleFailed, err = rerunStale(ctx, sb, sol)
			if err != nil {
				return p, bat, err
			}
		} else {
			bat.StaleSkipped = "no input could be perturbed"
		}
	}
	arts, err := sandbox.CollectArtifacts(sb.Workspace(), store)
	if err != nil {
		return p, bat, err
	}
	sb.Close()
	own, variants, stale, staleIn := splitArtifacts(arts, store)
	p.Case = playedCase(t, sol, inputs, own)
	if p.Failed != "" {
		return p, bat, nil
	}
	bat.Cases = append(bat.Cases, tableVariants(p.Case, len(inputs), variants)...)
	bat.Cases = append(bat.Cases, answerVariants(t, p.Case)...)
	switch {
	case bat.StaleSkipped != "":
	case staleFailed != "":
		bat.StaleSkipped = "the reference did not run on perturbed inputs: " + staleFailed
	default:
		c, moved, unmoved := staleCase(t, p, stalePrinted, inputs, stale)
		if moved {
			bat.Cases = append(bat.Cases, Wrong{StaleCase, c})
		}
		bat.Unmoved = unmoved
		if c.Answer != p.Case.Answer {
			bat.StaleAnswer = &Wrong{StaleAnswerCase, staleAnswerCase(p.Case, c, inputs, staleIn)}
		}
	}
	return p, bat, nil
}

// runSteps runs sol's steps in sb, recording what each printed and the
// first that failed in p.
func runSteps(ctx context.Context, sb sandbox.Sandbox, sol *schemas.Reference, p *Played) error {
	for i, st := range sol.Steps {
		res, err := sb.Exec(ctx, st.Code)
		if err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		p.Printed = append(p.Printed, res.Output)
		if res.Status != schemas.StatusOK && p.Failed == "" {
			p.Failed = fmt.Sprintf("step %d ended %s: %s", i, res.Status, LastLines(res.Output, 6))
		}
	}
	return nil
}

// rerunStale runs sol's steps again inside staleDir, which holds the
// perturbed inputs under data/, then returns to the workspace; the
// perturbed inputs stay, collected for the stale_answer case. failed
// names the first step that did not run.
func rerunStale(ctx context.Context, sb sandbox.Sandbox, sol *schemas.Reference) (printed []string, failed string, err error) {
	enter := fmt.Sprintf("import os as _bo\n_synth_cwd = _bo.getcwd()\n_bo.makedirs(%q, exist_ok=True)\n_bo.chdir(%q)", staleDir+"output", staleDir)
	leave := "import os as _bo\n_bo.chdir(globals().get('_synth_cwd', _bo.getcwd()))"
	if _, err := sb.Exec(ctx, enter); err != nil {
		return nil, "", fmt.Errorf("stale rerun: %w", err)
	}
	var p Played
	if err := runSteps(ctx, sb, sol, &p); err != nil {
		return nil, "", fmt.Errorf("stale rerun: %w", err)
	}
	if res, err := sb.Exec(ctx, leave); err != nil || res.Status != schemas.StatusOK {
		if err == nil {
			err = fmt.Errorf("%s: %s", res.Status, LastLines(res.Output, 4))
		}
		return nil, "", fmt.Errorf("stale rerun: leave: %w", err)
	}
	return p.Printed, p.Failed, nil
}

// inputKinds pairs each input's name with its file type, for battery.py.
func inputKinds(t *schemas.Task, inputs []sandbox.Input) [][2]string {
	out := [][2]string{}
	for i, in := range inputs {
		kind := strings.TrimPrefix(strings.ToLower(path.Ext(in.Name)), ".")
		if i < len(t.Files) && t.Files[i].Type != "" {
			kind = t.Files[i].Type
		}
		out = append(out, [2]string{in.Name, kind})
	}
	return out
}

// splitArtifacts separates the solution's own outputs from the battery's
// variants (by variant, then output path), the stale rerun's outputs (by
// output path, "host\x00sha256") and the perturbed inputs it ran on (by
// data/ path, host path).
func splitArtifacts(arts []schemas.Artifact, store string) (own []sandbox.Input, variants map[string]map[string]string, stale, staleIn map[string]string) {
	variants, stale, staleIn = map[string]map[string]string{}, map[string]string{}, map[string]string{}
	for _, a := range arts {
		host := filepath.Join(store, a.SHA256[:2], a.SHA256)
		switch {
		case strings.HasPrefix(a.Path, variantsDir):
			name, rest, ok := strings.Cut(strings.TrimPrefix(a.Path, variantsDir), "/")
			if ok && strings.HasPrefix(rest, "output/") {
				if variants[name] == nil {
					variants[name] = map[string]string{}
				}
				variants[name][rest] = host
			}
		case strings.HasPrefix(a.Path, staleDir):
			rest := strings.TrimPrefix(a.Path, staleDir)
			switch {
			case strings.HasPrefix(rest, "output/"):
				stale[rest] = host + "\x00" + a.SHA256
			case strings.HasPrefix(rest, "data/"):
				staleIn[rest] = host
			}
		default:
			own = append(own, sandbox.Input{Name: a.Path, Path: host})
		}
	}
	return own, variants, stale, staleIn
}

// playedCase is the case of a played solution: the task's checks, its
// answer, the inputs under data/ and its outputs.
func playedCase(t *schemas.Task, sol *schemas.Reference, inputs []sandbox.Input, outputs []sandbox.Input) checks.Case {
	c := checks.Case{Checks: t.Checks, Answer: sol.Answer, Messages: finished(sol.Answer)}
	c.Files = append(CaseInputs(inputs), outputs...)
	return c
}

func finished(answer string) []schemas.Message {
	return []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: " + answer}}
}

// tableVariants are the reference's case with its output tables replaced
// by each variant's copies; nIn is how many of ref's files are inputs.
func tableVariants(ref checks.Case, nIn int, variants map[string]map[string]string) []Wrong {
	var out []Wrong
	for _, name := range sortedKeys(variants) {
		c := ref
		c.Observations = nil
		c.Files = slices.Clone(ref.Files)
		for k := nIn; k < len(c.Files); k++ {
			if host, ok := variants[name][c.Files[k].Name]; ok {
				c.Files[k].Path = host
			}
		}
		out = append(out, Wrong{"table_" + name, c})
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// PerturbRules says how inputs are perturbed, for reports and repair
// turns.
const PerturbRules = "every third row or line dropped, float columns scaled by 1.5"

// BatteryPerturbRules says how the battery's stale rerun perturbs inputs:
// PerturbRules, and media too.
const BatteryPerturbRules = PerturbRules + "; a PDF's last page dropped, every third DOCX paragraph dropped, a WAV cut to two thirds, an image cropped to 90%"

// batteryDocs say what each battery case is.
var batteryDocs = map[string]string{
	"table_zeros":            "every number of each output table set to 0",
	"table_scaled":           "every number of each output table times 1.1 plus 1",
	"table_misaligned":       "one column of each output table moved down a row",
	"table_columns_swapped":  "two columns of one type swapped in each output table",
	"table_last_row_dropped": "each output table without its last row",
	"table_empty_cells":      "each output table with the right header and rows and every cell empty",
	"answer_zeros":           "the answer's expected numbers stated as 0",
	"answer_off":             "the answer's expected numbers off by one (a tenth for a fraction)",
	"answer_swapped":         "the answer's two expected numbers swapped",
	StaleCase:                "the reference's answer and outputs computed on perturbed inputs",
	StaleAnswerCase:          "the reference's answer as first given, beside the outputs of its rerun on perturbed inputs, judged on those inputs",
	BlankAnswer:              "the reference's files with a blank answer",
}

// BatteryDoc says what battery case name is.
func BatteryDoc(name string) string {
	if d, ok := batteryDocs[name]; ok {
		return d
	}
	if IsRandom(name) {
		return "the reference's files with an unrelated random answer"
	}
	return "a wrong solution"
}

// PerturbCell is a sandbox cell that writes a perturbed copy of each input
// (its name and file type, under data/) at layout, formatted with {i} and
// {name} ("output/{i}/{name}"), by PerturbRules, and prints mark then one
// JSON verdict per input: {"ok": true} or {"skip": why}. The battery's
// stale rerun and the LLM writer's proof on perturbed inputs both perturb
// through it.
func PerturbCell(files [][2]string, layout, mark string) string {
	js, _ := json.Marshal(files)
	return batteryPy + fmt.Sprintf("\nimport json as _bj\nprint(%q + _bj.dumps(perturb(_bj.loads(%q), %q)))\n", mark, js, layout)
}

// variantPerturbCell is PerturbCell for the variant split: it also
// perturbs what the battery's stale rerun does (a PDF's last page
// dropped, every third DOCX paragraph, a WAV cut to two thirds, an image
// cropped to 90%), and copies an input it cannot perturb to layout as it
// is, so that a twin's every input comes out of the sandbox.
func variantPerturbCell(files [][2]string, layout, mark string) string {
	js, _ := json.Marshal(files)
	return batteryPy + fmt.Sprintf("\nimport json as _bj\nprint(%q + _bj.dumps(perturb(_bj.loads(%q), %q, keep=True, media=True)))\n", mark, js, layout)
}
