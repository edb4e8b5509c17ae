package checks

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"synth/schemas"
)

// allowed lists the JSON fields each check kind accepts besides kind.
var allowed = map[string][]string{
	schemas.CheckAnswer: {"contains_all", "contains_any", "none_of", "regex", "number"},
	schemas.CheckFile:   {"path", "exists", "min_bytes", "type"},
	schemas.CheckTable:  {"path", "rows", "columns_include", "no_duplicates", "no_nulls", "no_iqr_outliers", "sorted_by"},
	schemas.CheckImage:  {"path", "width", "height", "mode", "compare", "brighter_than", "darker_than", "sharper_than"},
	schemas.CheckAudio:  {"path", "duration", "louder_than", "quieter_than", "shorter_than"},
	schemas.CheckPickle: {"path", "has_method"},
	schemas.CheckText:   {"path", "contains_all", "contains_any", "none_of", "regex", "number", "min_bytes"},
	schemas.CheckPython: {"code"},
}

// Transforms are the image transforms compare undoes; crop and resize take
// arguments (crop:x,y,w,h, resize:w,h), rotate takes degrees counterclockwise.
var Transforms = []string{"none", "rotate", "rotate90", "rotate180", "rotate270", "flip_h", "flip_v", "grayscale", "crop", "resize"}

// Validate checks every check of a task: a known kind, only the fields that
// kind accepts, a path where one is needed, sane tolerances. The error names
// the task and the check's index.
func Validate(t *schemas.Task) error {
	if len(t.Checks) == 0 {
		return fmt.Errorf("task %s: no checks", t.ID)
	}
	var errs []error
	for i := range t.Checks {
		if err := ValidateCheck(&t.Checks[i]); err != nil {
			errs = append(errs, fmt.Errorf("task %s: check %d (%s): %w", t.ID, i, t.Checks[i].Kind, err))
		}
	}
	return errors.Join(errs...)
}

// ValidateCheck validates one check.
func ValidateCheck(c *schemas.Check) error {
	ok, known := allowed[c.Kind]
	if !known {
		return fmt.Errorf("unknown kind %q (want one of %s)", c.Kind, strings.Join(schemas.CheckKinds, ", "))
	}
	for _, f := range setFields(c) {
		if !slices.Contains(ok, f) {
			return fmt.Errorf("field %q is not allowed for kind %s (allowed: %s)", f, c.Kind, strings.Join(ok, ", "))
		}
	}
	if slices.Contains(ok, "path") {
		if c.Path == "" {
			return fmt.Errorf("missing path")
		}
		if err := relPath(c.Path); err != nil {
			return err
		}
	}
	switch c.Kind {
	case schemas.CheckAnswer:
		if len(c.ContainsAll)+len(c.ContainsAny) == 0 && c.Regex == "" && c.Number == nil {
			return fmt.Errorf("an answer check needs contains_all, contains_any, regex or number")
		}
	case schemas.CheckPython:
		if strings.TrimSpace(c.Code) == "" {
			return fmt.Errorf("missing code")
		}
	case schemas.CheckTable:
		if c.Rows != nil && *c.Rows < 0 {
			return fmt.Errorf("rows %d is negative", *c.Rows)
		}
		if c.SortedBy != nil && c.SortedBy.Column == "" {
			return fmt.Errorf("sorted_by has no column")
		}
	case schemas.CheckImage:
		if err := validateImage(c); err != nil {
			return err
		}
	case schemas.CheckAudio:
		if err := validateAudio(c); err != nil {
			return err
		}
	}
	if c.Number != nil {
		n := c.Number
		if math.IsNaN(n.Value) || math.IsInf(n.Value, 0) {
			return fmt.Errorf("number value %v is not finite", n.Value)
		}
		if n.RelTol < 0 || n.AbsTol < 0 || math.IsNaN(n.RelTol) || math.IsNaN(n.AbsTol) || n.RelTol >= 1 {
			return fmt.Errorf("bad tolerance rel_tol=%v abs_tol=%v (want 0 <= rel_tol < 1, abs_tol >= 0)", n.RelTol, n.AbsTol)
		}
		if _, err := regexp.Compile(n.Label); err != nil || len(n.Label) > 200 {
			return fmt.Errorf("number label %q is not a regular expression of at most 200 bytes", n.Label)
		}
	}
	if c.MinBytes < 0 {
		return fmt.Errorf("min_bytes %d is negative", c.MinBytes)
	}
	return nil
}

func validateImage(c *schemas.Check) error {
	if (c.Width != nil && *c.Width <= 0) || (c.Height != nil && *c.Height <= 0) {
		return fmt.Errorf("width and height must be positive")
	}
	for _, ref := range []string{c.BrighterThan, c.DarkerThan, c.SharperThan} {
		if ref != "" {
			if err := relPath(ref); err != nil {
				return err
			}
		}
	}
	cmp := c.Compare
	if cmp == nil {
		return nil
	}
	if cmp.Ref == "" {
		return fmt.Errorf("compare has no ref")
	}
	if err := relPath(cmp.Ref); err != nil {
		return err
	}
	if cmp.MinSimilarity <= 0 || cmp.MinSimilarity > 1 || math.IsNaN(cmp.MinSimilarity) {
		return fmt.Errorf("bad tolerance: compare min_similarity %v (want 0 < x <= 1)", cmp.MinSimilarity)
	}
	return validateTransform(cmp.Transform)
}

func validateTransform(s string) error {
	for _, t := range strings.Split(s, "|") {
		if t == "" {
			continue
		}
		name, arg, _ := strings.Cut(t, ":")
		if !slices.Contains(Transforms, name) {
			return fmt.Errorf("unknown transform %q (want one of %s)", t, strings.Join(Transforms, ", "))
		}
		want := map[string]int{"crop": 4, "resize": 2, "rotate": 1}[name]
		if want == 0 {
			if arg != "" {
				return fmt.Errorf("transform %q takes no argument", t)
			}
			continue
		}
		parts := strings.Split(arg, ",")
		if len(parts) != want {
			return fmt.Errorf("transform %q wants %d numbers", t, want)
		}
		for _, p := range parts {
			if _, err := strconv.ParseFloat(strings.TrimSpace(p), 64); err != nil {
				return fmt.Errorf("transform %q: %q is not a number", t, p)
			}
		}
	}
	return nil
}

func validateAudio(c *schemas.Check) error {
	if d := c.Duration; d != nil {
		if d.Min < 0 || d.Max < 0 || (d.Max != 0 && d.Min > d.Max) {
			return fmt.Errorf("bad duration range %v..%v", d.Min, d.Max)
		}
	}
	for _, ref := range []string{c.LouderThan, c.QuieterThan, c.ShorterThan} {
		if ref != "" {
			if err := relPath(ref); err != nil {
				return err
			}
		}
	}
	return nil
}

// relPath accepts workspace-relative paths only (output/3.csv, data/a.png).
func relPath(p string) error {
	clean := path.Clean(strings.TrimPrefix(p, "./"))
	if path.IsAbs(p) || clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Errorf("path %q must be relative to the workspace (output/…, data/…)", p)
	}
	return nil
}

// setFields returns the JSON names of the fields set in c, besides kind.
func setFields(c *schemas.Check) []string {
	raw, _ := json.Marshal(c)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	var out []string
	for k, v := range m {
		if k == "kind" || string(v) == "null" || string(v) == "false" || string(v) == "0" || string(v) == `""` || string(v) == "[]" {
			continue
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// DecodeTask reads one task from JSON strictly (an unknown field is an
// error) and validates its checks.
func DecodeTask(data []byte) (schemas.Task, error) {
	var t schemas.Task
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		id := ""
		var probe struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(data, &probe) == nil {
			id = probe.ID
		}
		return t, fmt.Errorf("task %s: %w", id, err)
	}
	return t, Validate(&t)
}
