package pipeline

import (
	"testing"
)

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
