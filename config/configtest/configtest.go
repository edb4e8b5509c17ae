// Package configtest holds configs for tests of packages that read or
// record synth.yaml.
package configtest

import (
	"time"

	"synth/config"
	"synth/generators/writer"
	"synth/llm"
)

// Rich sets a value in every kind of config field: pointers, maps of
// any, maps and slices of structs, durations, nested sections.
func Rich() config.Config {
	cfg := config.Default()
	temp, top, wtemp := 0.7, 0.95, 0.3
	cfg.Seed, cfg.Concurrency = 42, 8
	cfg.Teacher.Kind, cfg.Teacher.Model, cfg.Teacher.Format = "openai", "qwen2.5-coder", "openai-tools"
	cfg.Teacher.Temperature, cfg.Teacher.TopP, cfg.Teacher.MaxReplyTokens = &temp, &top, 2048
	cfg.Teacher.SystemPrompts = []string{"a", "b"}
	cfg.LLM.Endpoints = []llm.Endpoint{{BaseURL: "http://127.0.0.1:8000/v1", Model: "qwen2.5-coder", KeyEnv: "MY_KEY", Concurrency: 4,
		Extra: map[string]any{"repetition_penalty": 1.05, "seed": 7, "stop": []any{"</s>"}, "chat_template_kwargs": map[string]any{"enable_thinking": false}}}}
	cfg.LLM.Timeout, cfg.LLM.MaxRetries, cfg.LLM.MaxCostUSD = 90*time.Second, 3, 12.5
	cfg.LLM.Extra = map[string]any{"presence_penalty": 0.1}
	cfg.LLM.Prices = map[string]llm.Price{"qwen2.5-coder": {Input: 0.1, Output: 0.2}}
	cfg.Tasks.Writer, cfg.Tasks.Templates = "llm", []string{"table.sort"}
	cfg.Tasks.LLM.Temperature, cfg.Tasks.LLM.Critic = &wtemp, true
	cfg.Tasks.LLM.Dictionary = map[string][]writer.TaskType{"table": {{Category: "data", Subcategory: "sort", Keywords: []string{"sort"}}}}
	cfg.Sources.Specs, cfg.Sources.Licenses = []string{"sample", "local:./data"}, []string{"cc0"}
	cfg.Sources.Kaggle.Tags = []string{"finance"}
	cfg.Sandbox.Slots, cfg.Sandbox.Limits.Memory = 4, "2GiB"
	cfg.Filters.Dedup.NearThreshold, cfg.Filters.Gate.MaxFailedCells = 0.8, 0.5
	cfg.Bench.Fraction = 0.3
	cfg.Dataset.Format, cfg.Dataset.JSONL = "openai-tools", true
	return cfg
}
