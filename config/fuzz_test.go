package config

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
