package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
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
}

// parseDraft reads a writer reply into a task: the first JSON object in the
// text (fences and prose around it are ignored), checks decoded strictly
// and validated. The error says what to fix, for the repair turn.
func parseDraft(text string, f schemas.File) (schemas.Task, error) {
	raw, err := firstObject(text)
	if err != nil {
		return schemas.Task{}, err
	}
	var d draft
	if err := json.Unmarshal(raw, &d); err != nil {
		return schemas.Task{}, fmt.Errorf("the JSON does not fit the schema: %v", err)
	}
	t := schemas.Task{Query: strings.TrimSpace(d.Query), Category: d.Category, Subcategory: d.Subcategory}
	var errs []error
	if len([]rune(t.Query)) < 15 {
		errs = append(errs, errors.New(`"query" is missing or too short`))
	}
	if !slices.Contains(schemas.Categories, t.Category) {
		errs = append(errs, fmt.Errorf(`"category" %q is not one of %s`, t.Category, strings.Join(schemas.Categories, ", ")))
	}
	for _, o := range d.Outputs {
		p := path.Clean(strings.TrimPrefix(o, "./"))
		if !strings.HasPrefix(p, "output/") {
			errs = append(errs, fmt.Errorf("output %q is not under output/", o))
			continue
		}
		t.Outputs = append(t.Outputs, p)
	}
	for i, rc := range d.Checks {
		var c schemas.Check
		dec := json.NewDecoder(bytes.NewReader(rc))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			errs = append(errs, fmt.Errorf("check %d: %v", i, err))
			continue
		}
		c.Path = strings.TrimPrefix(c.Path, "./")
		for _, p := range checkPaths(&c) {
			if strings.HasPrefix(p, "data/") && p != "data/"+f.Name {
				errs = append(errs, fmt.Errorf("check %d: path %q: the only input is data/%s", i, p, f.Name))
			}
		}
		t.Checks = append(t.Checks, c)
	}
	if len(errs) == 0 {
		if err := checks.Validate(&t); err != nil {
			errs = append(errs, err)
		}
	}
	for _, o := range t.Outputs {
		if !slices.ContainsFunc(t.Checks, func(c schemas.Check) bool { return c.Path == o }) {
			errs = append(errs, fmt.Errorf("output %s has no check", o))
		}
	}
	return t, errors.Join(errs...)
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
