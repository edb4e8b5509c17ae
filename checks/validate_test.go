package checks

import (
	"strings"
	"testing"

	"synth/schemas"
)

func intp(n int) *int { return &n }

func TestValidate(t *testing.T) {
	cases := []struct {
		name  string
		check schemas.Check
		want  string // substring of the error; empty: valid
	}{
		{"answer number", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 3, RelTol: 0.01}}, ""},
		{"answer empty", schemas.Check{Kind: "answer"}, "needs contains_all"},
		{"unknown kind", schemas.Check{Kind: "video", Path: "output/1.mp4"}, `unknown kind "video"`},
		{"missing path", schemas.Check{Kind: "table", NoNulls: true}, "missing path"},
		{"field not allowed", schemas.Check{Kind: "answer", Path: "output/1.csv", ContainsAll: []string{"x"}}, `field "path" is not allowed for kind answer`},
		{"rows on image", schemas.Check{Kind: "image", Path: "output/1.png", Rows: intp(3)}, `field "rows"`},
		{"negative tolerance", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 3, AbsTol: -1}}, "bad tolerance"},
		{"similarity above one", schemas.Check{Kind: "image", Path: "output/1.png", Compare: &schemas.ImageCompare{Ref: "data/a.png", MinSimilarity: 1.5}}, "min_similarity"},
		{"unknown transform", schemas.Check{Kind: "image", Path: "output/1.png", Compare: &schemas.ImageCompare{Ref: "data/a.png", Transform: "twirl", MinSimilarity: 0.9}}, "unknown transform"},
		{"crop args", schemas.Check{Kind: "image", Path: "output/1.png", Compare: &schemas.ImageCompare{Ref: "data/a.png", Transform: "crop:1,2", MinSimilarity: 0.9}}, "wants 4 numbers"},
		{"good compare", schemas.Check{Kind: "image", Path: "output/1.png", Compare: &schemas.ImageCompare{Ref: "data/a.png", Transform: "crop:0,0,10,10|grayscale", MinSimilarity: 0.9}}, ""},
		{"absolute path", schemas.Check{Kind: "file", Path: "/etc/passwd"}, "relative"},
		{"escaping path", schemas.Check{Kind: "file", Path: "../x"}, "relative"},
		{"duration range", schemas.Check{Kind: "audio", Path: "output/a.wav", Duration: &schemas.Range{Min: 5, Max: 2}}, "duration"},
		{"python without code", schemas.Check{Kind: "python"}, "missing code"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			task := &schemas.Task{ID: "t42", Checks: []schemas.Check{{Kind: "file", Path: "output/0.csv"}, tc.check}}
			err := Validate(task)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) || !strings.Contains(msg, "task t42") || !strings.Contains(msg, "check 1") {
				t.Fatalf("error %q: want %q, the task id and the check index", msg, tc.want)
			}
		})
	}
}

func TestDecodeTaskUnknownField(t *testing.T) {
	_, err := DecodeTask([]byte(`{"id":"t1","checks":[{"kind":"answer","contians_all":["x"]}]}`))
	if err == nil || !strings.Contains(err.Error(), "t1") || !strings.Contains(err.Error(), "contians_all") {
		t.Fatalf("got %v", err)
	}
	if _, err := DecodeTask([]byte(`{"id":"t1","checks":[{"kind":"answer","contains_all":["x"]}]}`)); err != nil {
		t.Fatal(err)
	}
}
