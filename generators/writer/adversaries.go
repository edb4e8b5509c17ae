package writer

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"synth/checks/adversary"
	"synth/sandbox"
	"synth/schemas"
)

// echoQuery runs no code and answers with the query's own words: a task
// whose checks take that for an answer tests nothing.
var echoQuery = adversary.Adversary{Name: "echo_query", Doc: "no files and the query as the answer",
	Make: func(t *schemas.Task, _ []sandbox.Input) (adversary.Rollout, bool, error) {
		return adversary.Rollout{Answer: t.Query}, true, nil
	}}

// MutantNames name the mechanical mutants, for reports.
var MutantNames = []string{"answer_numbers_off", "outputs_halved"}

// named is a wrong solution with the name reports give it.
type named struct {
	name string
	sol  *schemas.Reference
}

// mutants are mechanical near misses of the reference that a task's checks
// must reject: the answer's numbers off by a tenth, and the outputs cut to
// half (a table keeps its header and half its rows).
func mutants(t *schemas.Task) []named {
	var out []named
	ref := t.Reference
	hasNumber := false
	for _, c := range t.Checks {
		hasNumber = hasNumber || (c.Kind == schemas.CheckAnswer && c.Number != nil)
	}
	if hasNumber {
		if a := shiftNumbers(ref.Answer); a != ref.Answer {
			out = append(out, named{"answer_numbers_off", &schemas.Reference{Steps: ref.Steps, Answer: a}})
		}
	}
	if len(t.Outputs) > 0 {
		steps := append(append([]schemas.RefStep(nil), ref.Steps...), schemas.RefStep{Code: truncateOutputs(t.Outputs)})
		out = append(out, named{"outputs_halved", &schemas.Reference{Steps: steps, Answer: ref.Answer}})
	}
	return out
}

var numberRE = regexp.MustCompile(`-?\d+(?:\.\d+)?`)

// shiftNumbers multiplies every number in s by 1.1 and adds 1.
func shiftNumbers(s string) string {
	return numberRE.ReplaceAllStringFunc(s, func(m string) string {
		v, err := strconv.ParseFloat(m, 64)
		if err != nil {
			return m
		}
		return strconv.FormatFloat(v*1.1+1, 'g', 6, 64)
	})
}

// truncateOutputs is a cell that halves each output file: a csv or tsv
// keeps its header and the first half of its rows, anything else the first
// half of its bytes.
func truncateOutputs(outputs []string) string {
	var b strings.Builder
	b.WriteString("import os\nfor p in [")
	for _, o := range outputs {
		fmt.Fprintf(&b, "%q, ", o)
	}
	b.WriteString(`]:
    if not os.path.isfile(p):
        continue
    if p.endswith(('.csv', '.tsv')):
        with open(p, encoding='utf-8', errors='replace') as f:
            lines = f.read().splitlines()
        with open(p, 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines[:1 + (len(lines) - 1) // 2]) + '\n')
    else:
        with open(p, 'rb') as f:
            data = f.read()
        with open(p, 'wb') as f:
            f.write(data[:len(data) // 2])
`)
	return b.String()
}

// literalEcho runs no code and answers with the string and number literals
// of the task's python checks, and writes the same text at every output
// path: a check that passes what it was written with holds a backdoor (a
// magic token) or a constant, not a test of the data and the work.
var literalEcho = adversary.Adversary{Name: "literal_echo", Doc: "the python checks' own string and number literals as the answer and as every output file",
	Make: func(t *schemas.Task, _ []sandbox.Input) (adversary.Rollout, bool, error) {
		lits := checkLiterals(t.Checks)
		if len(lits) == 0 {
			return adversary.Rollout{}, false, nil
		}
		text := strings.Join(lits, "\n")
		files := map[string][]byte{}
		for _, o := range t.Outputs {
			files[o] = []byte(text + "\n")
		}
		return adversary.Rollout{Answer: text, Files: files}, true, nil
	}}

// pyLiteralRE finds Python string literals (single or double quoted, on one
// line) and number literals in a check's code.
var pyLiteralRE = regexp.MustCompile(`'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|(?:^|[^\w.])(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)`)

// checkLiterals are the distinct literals of the python checks' code, in
// order.
func checkLiterals(cs []schemas.Check) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		if c.Kind != schemas.CheckPython {
			continue
		}
		for _, m := range pyLiteralRE.FindAllStringSubmatch(c.Code, -1) {
			s := m[1] + m[2] + m[3]
			if strings.TrimSpace(s) != "" && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}
