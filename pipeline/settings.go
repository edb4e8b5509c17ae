package pipeline

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"synth/agent"
	"synth/llm"
)

// teacherSettings are the sampling settings the rollouts really ran with,
// defaults filled in, under synth.yaml's keys: the dataset card shows them.
// For the openai teacher they include the extra body fields its requests
// carried (llm.extra, then its endpoints' extra), save those the teacher's
// own settings replace.
func teacherSettings(tc agent.Config, lc llm.Config) map[string]any {
	m := map[string]any{"samples": max(1, tc.Samples), "max_turns": tc.MaxTurns}
	if tc.MaxTurns <= 0 {
		m["max_turns"] = 10 // agent.Run's default
	}
	if tc.Kind != "openai" {
		return m // the other teachers do not sample
	}
	for k, v := range teacherExtra(tc.Model, lc) {
		m[k] = v
	}
	m["temperature"] = agent.DefaultTemperature
	if tc.Temperature != nil {
		m["temperature"] = *tc.Temperature
	}
	if tc.TopP != nil {
		m["top_p"] = *tc.TopP
	}
	if tc.MaxReplyTokens > 0 {
		m["max_reply_tokens"] = tc.MaxReplyTokens
		delete(m, "max_tokens") // sent as max_tokens, over any extra
	}
	return m
}

// teacherExtra is the extra body fields sent to model's endpoints (the
// first endpoint's model when model is ""), each as the card prints it:
// a scalar as it is, anything else as JSON, and a field whose value
// differs between endpoints as each endpoint's, by base URL.
func teacherExtra(model string, lc llm.Config) map[string]any {
	if model == "" && len(lc.Endpoints) > 0 {
		model = lc.Endpoints[0].Model
	}
	per := map[string]map[string]string{} // key -> endpoint -> value
	var eps []string
	for _, e := range lc.Endpoints {
		if e.Model != model {
			continue
		}
		eps = append(eps, e.BaseURL)
		f := maps.Clone(lc.Extra)
		if f == nil {
			f = map[string]any{}
		}
		maps.Copy(f, e.Extra)
		for k, v := range f {
			if per[k] == nil {
				per[k] = map[string]string{}
			}
			per[k][e.BaseURL] = settingText(v)
		}
	}
	out := map[string]any{}
	for k, byEP := range per {
		vals := slices.Sorted(maps.Values(byEP))
		if len(byEP) == len(eps) && vals[0] == vals[len(vals)-1] {
			out[k] = vals[0]
			continue
		}
		parts := make([]string, 0, len(eps))
		for _, ep := range eps {
			v, ok := byEP[ep]
			if !ok {
				v = "unset"
			}
			parts = append(parts, ep+": "+v)
		}
		out[k] = strings.Join(parts, "; ")
	}
	return out
}

// settingText is a body field's value as the card shows it.
func settingText(v any) string {
	switch v.(type) {
	case string, bool, int, int64, float64:
		return fmt.Sprint(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
