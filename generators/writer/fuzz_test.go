package writer

import (
	"testing"

	"synth/schemas"
)

// FuzzParseDraft feeds a query writer's reply, which is untrusted text, to
// the draft reader.
func FuzzParseDraft(f *testing.F) {
	f.Add("```json\n{\"query\": \"q\", \"checks\": [{\"kind\": \"answer\", \"number\": 1}], \"reference\": {\"steps\": [{\"code\": \"print(1)\"}], \"answer\": \"1\"}}\n```")
	f.Add(`{"query": "q", "checks": [{"kind": "answer", "number": {"expr": "len(df)"}}]}`)
	f.Add(`{"checks": [{"kind": "python", "code": "assert True"}], "outputs": ["../x"]}`)
	file := schemas.File{ID: "f1", Name: "data.csv", Type: "csv"}
	f.Fuzz(func(t *testing.T, text string) {
		parseDraft(text, file)
	})
}
