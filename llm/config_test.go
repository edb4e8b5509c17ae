package llm_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"synth/llm"
)

func TestConfigYAML(t *testing.T) {
	const doc = `
endpoints:
  - base_url: http://127.0.0.1:8000/v1
    model: qwen
    key_env: VLLM_KEY
    concurrency: 64
    rpm: 600
    tpm: 200000
    extra: {top_k: 20}
timeout: 90s
max_retries: 3
extra:
  repetition_penalty: 1.05
  chat_template_kwargs: {enable_thinking: false}
prices:
  gpt-4o: {input: 2.5, cached_input: 1.25, output: 10}
max_cost_usd: 12.5
max_tokens: 1000000
no_cache: true
`
	var cfg llm.Config
	dec := yaml.NewDecoder(strings.NewReader(doc))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		t.Fatal(err)
	}
	ep := cfg.Endpoints[0]
	if ep.Concurrency != 64 || ep.RPM != 600 || ep.TPM != 200000 || ep.KeyEnv != "VLLM_KEY" || ep.Extra["top_k"] != 20 ||
		cfg.Timeout != 90*time.Second || cfg.MaxRetries != 3 || cfg.MaxCostUSD != 12.5 || cfg.MaxTokens != 1000000 || !cfg.NoCache ||
		cfg.Prices["gpt-4o"].Output != 10 {
		t.Errorf("config = %+v", cfg)
	}
	if got := cfg.Prices["gpt-4o"].Cost(1_000_000, 500_000, 100_000); got != 1.25+0.625+1 {
		t.Errorf("cost = %v", got)
	}
}

// TestConfigJSONDurations: run.json shows durations as synth.yaml spells
// them and reads them back, or nanoseconds as earlier versions wrote.
func TestConfigJSONDurations(t *testing.T) {
	c := llm.Config{Timeout: 90 * time.Second, BreakerPause: 2 * time.Minute, MaxRetries: 3, Endpoints: []llm.Endpoint{{Model: "m"}}}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"timeout":"1m30s"`) || !strings.Contains(string(b), `"breaker_pause":"2m0s"`) || !strings.Contains(string(b), `"max_retries":3`) {
		t.Errorf("JSON %s", b)
	}
	var back llm.Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Timeout != c.Timeout || back.BreakerPause != c.BreakerPause || back.MaxRetries != 3 || back.Endpoints[0].Model != "m" {
		t.Errorf("read back %+v", back)
	}
	if err := json.Unmarshal([]byte(`{"timeout": 5000000000}`), &back); err != nil || back.Timeout != 5*time.Second || back.BreakerPause != 0 {
		t.Errorf("nanoseconds: %v, %+v", err, back)
	}
	if err := json.Unmarshal([]byte(`{"timeout": "soon"}`), &back); err == nil {
		t.Error("a timeout of \"soon\" reads without error")
	}
}
