package pipeline

import (
	"testing"
)

// FuzzConfig feeds a config file's bytes to the strict reader.
func FuzzConfig(f *testing.F) {
	f.Add([]byte("seed: 7\nsources:\n  specs: [sample]\n"))
	f.Add([]byte("teacher:\n  kind: openai\nllm:\n  endpoints:\n    - base_url: http://x\n      model: m\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("sandbox: {slots: -1, python: /tmp/x}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var cfg Config
		decodeStrict("synth.yaml", data, &cfg)
	})
}

// FuzzParseShard feeds a --shard value and its environment.
func FuzzParseShard(f *testing.F) {
	f.Add("2/8", "", 8)
	f.Add("auto", "3", 4)
	f.Add("auto", "2", 0)
	f.Add("", "", 0)
	f.Fuzz(func(t *testing.T, spec, env string, shards int) {
		s, err := ParseShard(spec, shards, func(string) string { return env })
		if err == nil && (s.Index < 1 || s.Index > s.Count) {
			t.Fatalf("ParseShard(%q, %d) = %+v", spec, shards, s)
		}
	})
}
