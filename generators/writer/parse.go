package writer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"synth/checks"
	"synth/schemas"
)

// draft is the JSON object the writer replies with.
type draft struct {
	Query       string            `json:"query"`
	Category    string            `json:"category"`
	Subcategory string            `json:"subcategory"`
	Outputs     []string          `json:"outputs"`
	Checks      []json.RawMessage `json:"checks"`
	Reference   *solution         `json:"reference"`
	Wrong       *solution         `json:"wrong_solution"`
}

// solution is a reference or a wrong solution as the writer writes it.
type solution struct {
	Steps  []schemas.RefStep `json:"steps"`
	Answer string            `json:"answer"`
}

// parsed is a draft read into a task, with what its proof needs.
type parsed struct {
	task  schemas.Task       // Reference set; expression values not yet frozen
	wrong *schemas.Reference // the writer's wrong-but-plausible solution, if any
	exprs []expr
}

// expr is a check value the writer gave as a Python expression over the
// input, to be evaluated in the sandbox and frozen into the check.
type expr struct {
	check int    // index in task.Checks
	field string // number or rows
	code  string
}

// problem is one reason a draft cannot be used: its drop reason and what to
// fix, as the repair turn shows it.
type problem struct {
	reason string // DropUnparsable or DropTrivial
	msg    string
}

// problems is a draft's list of problems; as an error it reads as the list
// the writer is shown.
type problems []problem

func (ps problems) Error() string {
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.msg
	}
	return strings.Join(msgs, "; ")
}

// reason is the drop reason of the draft: unparsable if any problem is of
// form, else trivial_check.
func (ps problems) reason() string {
	for _, p := range ps {
		if p.reason != DropTrivial {
			return p.reason
		}
	}
	return DropTrivial
}

// parseDraft reads a writer reply into a task: the first JSON object in the
// text (fences and prose around it are ignored), checks decoded strictly
// (expressions set aside for the proof), validated, and refused when they
// cannot discriminate. The problems say what to fix, for the repair turn;
// nil means the draft is ready for its proof.
func parseDraft(text string, f schemas.File) (parsed, problems) {
	var ps problems
	bad := func(format string, args ...any) {
		ps = append(ps, problem{DropUnparsable, fmt.Sprintf(format, args...)})
	}
	trivial := func(format string, args ...any) { ps = append(ps, problem{DropTrivial, fmt.Sprintf(format, args...)}) }

	raw, err := firstObject(text)
	if err != nil {
		bad("%v", err)
		return parsed{}, ps
	}
	var d draft
	if err := json.Unmarshal(raw, &d); err != nil {
		bad("the JSON does not fit the schema: %v", err)
		return parsed{}, ps
	}
	p := parsed{task: schemas.Task{Query: strings.TrimSpace(d.Query), Category: d.Category, Subcategory: d.Subcategory}}
	t := &p.task
	if len([]rune(t.Query)) < 15 {
		bad(`"query" is missing or too short`)
	}
	if !slices.Contains(schemas.Categories, t.Category) {
		bad(`"category" %q is not one of %s`, t.Category, strings.Join(schemas.Categories, ", "))
	}
	for _, o := range d.Outputs {
		op := path.Clean(strings.TrimPrefix(o, "./"))
		if !strings.HasPrefix(op, "output/") {
			bad("output %q is not under output/", o)
			continue
		}
		t.Outputs = append(t.Outputs, op)
	}
	for _, op := range queryOutputs(t.Query) {
		if !slices.Contains(t.Outputs, op) {
			t.Outputs = append(t.Outputs, op)
		}
	}
	if ref, msg := d.Reference.reference("reference"); msg != "" {
		bad("%s", msg)
	} else {
		t.Reference = ref
	}
	if d.Wrong != nil {
		if w, msg := d.Wrong.reference("wrong_solution"); msg != "" {
			bad("%s", msg)
		} else {
			p.wrong = w
		}
	}
	for i, rc := range d.Checks {
		c, exprs, err := decodeCheck(rc, i)
		if err != nil {
			bad("check %d: %v", i, err)
			continue
		}
		for _, cp := range checkPaths(&c) {
			if strings.HasPrefix(cp, "data/") && cp != "data/"+f.Name {
				bad("check %d: path %q: the only input is data/%s", i, cp, f.Name)
			}
		}
		if msg := trivialCheck(&c, len(exprs) > 0); msg != "" {
			trivial("check %d (%s) %s", i, c.Kind, msg)
		}
		t.Checks = append(t.Checks, c)
		p.exprs = append(p.exprs, exprs...)
	}
	if len(ps) == 0 {
		if err := checks.Validate(t); err != nil {
			bad("%v", err)
		}
	}
	for _, o := range t.Outputs {
		if !slices.ContainsFunc(t.Checks, func(c schemas.Check) bool { return checksContent(&c, o) }) {
			if slices.ContainsFunc(t.Checks, func(c schemas.Check) bool { return c.Path == o }) {
				trivial("output %s has only an existence check: add a check on its content", o)
			} else {
				bad("output %s has no check: add a check on its content", o)
			}
		}
	}
	return p, ps
}

// reference turns the writer's solution into a schemas.Reference; msg says
// what is missing.
func (s *solution) reference(key string) (*schemas.Reference, string) {
	if s == nil {
		return nil, fmt.Sprintf(`%q is missing: write the Python steps that solve the task and the final answer`, key)
	}
	var steps []schemas.RefStep
	for _, st := range s.Steps {
		if strings.TrimSpace(st.Code) != "" {
			steps = append(steps, st)
		}
	}
	if len(steps) == 0 {
		return nil, fmt.Sprintf(`%q has no steps with code`, key)
	}
	if strings.TrimSpace(s.Answer) == "" {
		return nil, fmt.Sprintf(`%q has no answer`, key)
	}
	return &schemas.Reference{Steps: steps, Answer: strings.TrimSpace(s.Answer)}, ""
}

// decodeCheck decodes one check strictly. A number or rows given as
// {"expr": "..."} is set aside as an expression (its value 0 until frozen).
func decodeCheck(rc json.RawMessage, i int) (schemas.Check, []expr, error) {
	var c schemas.Check
	var m map[string]json.RawMessage
	if err := json.Unmarshal(rc, &m); err != nil {
		return c, nil, err
	}
	var exprs []expr
	if rawNum, ok := m["number"]; ok {
		var n struct {
			Expr   string   `json:"expr"`
			Value  *float64 `json:"value"`
			RelTol float64  `json:"rel_tol"`
			AbsTol float64  `json:"abs_tol"`
		}
		if err := json.Unmarshal(rawNum, &n); err == nil && n.Expr != "" {
			if n.Value != nil {
				return c, nil, errors.New(`number: give "value" or "expr", not both`)
			}
			exprs = append(exprs, expr{check: i, field: "number", code: n.Expr})
			m["number"], _ = json.Marshal(schemas.NumberMatch{RelTol: n.RelTol, AbsTol: n.AbsTol})
		}
	}
	if rawRows, ok := m["rows"]; ok {
		var r struct {
			Expr string `json:"expr"`
		}
		if err := json.Unmarshal(rawRows, &r); err == nil && r.Expr != "" {
			exprs = append(exprs, expr{check: i, field: "rows", code: r.Expr})
			m["rows"] = json.RawMessage("0")
		}
	}
	body, _ := json.Marshal(m)
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, nil, err
	}
	c.Path = strings.TrimPrefix(c.Path, "./")
	return c, exprs, nil
}

// outputPathRE finds the output files a query names.
var outputPathRE = regexp.MustCompile(`(?:\./)?output/[\p{L}\p{N}_\-./]*\.[A-Za-z0-9]+`)

// queryOutputs are the output paths named in a query, cleaned.
func queryOutputs(q string) []string {
	var out []string
	for _, m := range outputPathRE.FindAllString(q, -1) {
		p := path.Clean(strings.TrimPrefix(strings.TrimRight(m, "."), "./"))
		if strings.HasPrefix(p, "output/") && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// firstObject returns the first complete JSON object in text.
func firstObject(text string) (json.RawMessage, error) {
	for i := strings.IndexByte(text, '{'); i >= 0; {
		var raw json.RawMessage
		if err := json.NewDecoder(strings.NewReader(text[i:])).Decode(&raw); err == nil {
			return raw, nil
		}
		j := strings.IndexByte(text[i+1:], '{')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return nil, errors.New("no valid JSON object found in the reply")
}

// checkPaths are the workspace paths a check names, ./ removed.
func checkPaths(c *schemas.Check) []string {
	ps := []string{c.Path, c.BrighterThan, c.DarkerThan, c.SharperThan, c.LouderThan, c.QuieterThan, c.ShorterThan}
	if c.Compare != nil {
		ps = append(ps, c.Compare.Ref)
	}
	for i, p := range ps {
		ps[i] = strings.TrimPrefix(p, "./")
	}
	return ps
}
