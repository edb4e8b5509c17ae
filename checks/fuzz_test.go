package checks

import (
	"strings"
	"testing"
)

// FuzzDecodeTask feeds a task's JSON, as an imported benchmark or an LLM
// writer hands it over, to the strict reader and the validator.
func FuzzDecodeTask(f *testing.F) {
	f.Add([]byte(`{"id":"t1","category":"data","query":"q","files":[{"id":"a","name":"a.csv","type":"csv"}],"checks":[{"kind":"answer","number":1.5}]}`))
	f.Add([]byte(`{"id":"t2","checks":[{"kind":"table","path":"output/x.csv","rows":3}]}`))
	f.Add([]byte(`{"id":"t3","checks":[{"kind":"python","code":"assert 1"}],"outputs":["../../etc"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		DecodeTask(data)
	})
}

// FuzzParseResults feeds the verifier's output, which a rollout's code can
// write to as well, to the results reader: the line it takes starts with
// the nonce, and there is exactly one.
func FuzzParseResults(f *testing.F) {
	const nonce = "SYNTH-RESULTS-0123456789abcdef:"
	f.Add(nonce + `[[{"kind":"answer","ok":true,"message":"ok"}]]`)
	f.Add("noise\n" + nonce + `[[]]` + "\n" + nonce + `[[]]`)
	f.Add(nonce + `[[{"kind":"answer","ok":tr`)
	f.Fuzz(func(t *testing.T, out string) {
		rs, err := parseResults(out, nonce)
		if err == nil && strings.Count(out, nonce) == 0 {
			t.Fatalf("results %v read from output without the nonce", rs)
		}
	})
}
