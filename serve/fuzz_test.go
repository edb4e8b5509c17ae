package serve

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeAction feeds a trainer's step action, untrusted JSON off the
// network, to the action reader.
func FuzzDecodeAction(f *testing.F) {
	f.Add([]byte(`{"message":{"role":"assistant","content":"Finished: 1"}}`))
	f.Add([]byte(`{"content":"print(1)"}`))
	f.Add([]byte(`{"message":{"role":"assistant","tool_calls":[{"id":"a","name":"execute_python","arguments":"{}"}]}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		decodeAction(json.RawMessage(raw))
	})
}
