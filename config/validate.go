package config

import (
	"fmt"
	"slices"
	"strings"

	"synth/checks/adversary"
	"synth/rollout"
	"synth/sources"
)

// Validate checks the settings a build would only trip over later — an
// unknown teacher, a size that does not parse, a share out of range — and
// names the key.
func (c Config) Validate() error {
	if rollout.IsAdversary(c.Teacher.Kind) {
		if _, ok := adversary.Named(strings.TrimPrefix(c.Teacher.Kind, rollout.AdversaryPrefix)); !ok {
			return fmt.Errorf("teacher.kind %q: no such adversary (want adversary: and one of %s)", c.Teacher.Kind, strings.Join(adversary.Names(), ", "))
		}
	} else if err := oneOf("teacher.kind", c.Teacher.Kind, "reference", "openai", "replay", "empty", "sloppy"); err != nil {
		return err
	}
	if err := oneOf("teacher.format", c.Teacher.Format, "pybench", "openai-tools"); err != nil {
		return err
	}
	if err := oneOf("tasks.writer", c.Tasks.Writer, "template", "llm"); err != nil {
		return err
	}
	if c.Teacher.Kind == "replay" && c.Teacher.Replay == "" {
		return fmt.Errorf("teacher.kind replay needs teacher.replay: the trajectory file to replay (--replay FILE)")
	}
	if (c.Teacher.Kind == "openai" || c.Tasks.Writer == "llm") && len(c.LLM.Endpoints) == 0 {
		return fmt.Errorf("the openai teacher and the llm query writer need an endpoint: pass --model M (and --base-url URL unless it is $OPENAI_BASE_URL or OpenAI's API), or set llm.endpoints")
	}
	for i, e := range c.LLM.Endpoints {
		if e.Model == "" {
			return fmt.Errorf("llm.endpoints[%d] needs a model (--model; base_url defaults to $OPENAI_BASE_URL, else OpenAI's API)", i)
		}
	}
	if cc := c.Tasks.Composed; cc.Share < 0 || cc.Share > 1 {
		return fmt.Errorf("tasks.composed.share %v: want a share from 0 to 1 (0: no composed tasks)", cc.Share)
	} else if cc.Depth != 0 && (cc.Depth < 3 || cc.Depth > 5) {
		return fmt.Errorf("tasks.composed.depth %d: want 3 to 5 steps (clean, filter, join, aggregate, share), or 0 for 3", cc.Depth)
	}
	if c.Bench.Fraction < 0 || c.Bench.Fraction > 1 {
		return fmt.Errorf("bench.fraction %v: want a share from 0 to 1", c.Bench.Fraction)
	}
	if c.Teacher.Samples < 0 || c.Teacher.MaxTurns < 0 || c.Concurrency < 0 {
		return fmt.Errorf("teacher.samples, teacher.max_turns and concurrency cannot be negative")
	}
	if _, err := sources.ParseSpecs(c.Sources.Specs); err != nil {
		return fmt.Errorf("sources.specs: %w", err)
	}
	if _, err := sources.StoreOptionsFrom(c.Sources); err != nil {
		return err
	}
	if _, err := sources.ParseIdleTimeout(c.Sources.IdleTimeout); err != nil {
		return err
	}
	if _, err := c.Sandbox.ParsedLimits(); err != nil {
		return err
	}
	if err := c.Filters.Validate(); err != nil {
		return err
	}
	return c.Dataset.Validate()
}

func oneOf(key, v string, allowed ...string) error {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("%s %q is not known (want %s)", key, v, joinOr(allowed))
}

func joinOr(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := ""
	for i, v := range s[:len(s)-1] {
		if i > 0 {
			out += ", "
		}
		out += v
	}
	return out + " or " + s[len(s)-1]
}
