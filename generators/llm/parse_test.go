package llm

import (
	"strings"
	"testing"

	"synth/schemas"
)

func TestParseDraft(t *testing.T) {
	f := schemas.File{Name: "a.png", Type: "png"}
	const q = `"query":"Rotate ./data/a.png by 90 degrees and save ./output/r.png"`
	tests := []struct {
		name    string
		text    string
		wantErr string
	}{
		{"ok", `{` + q + `,"category":"image_audio","outputs":["./output/r.png"],"checks":[{"kind":"image","path":"./output/r.png","compare":{"ref":"data/a.png","transform":"rotate90","min_similarity":0.9}}]}`, ""},
		{"prose around", "Here:\n{" + q + `,"category":"image_audio","checks":[{"kind":"file","path":"output/r.png"}]} hope it helps {`, ""},
		{"no json", "I cannot", "no valid JSON"},
		{"bad category", `{` + q + `,"category":"images","checks":[{"kind":"file","path":"output/r.png"}]}`, "category"},
		{"output without check", `{` + q + `,"category":"image_audio","outputs":["output/r.png","output/s.png"],"checks":[{"kind":"file","path":"output/r.png"}]}`, "output/s.png has no check"},
		{"output outside", `{` + q + `,"category":"image_audio","outputs":["/tmp/r.png"],"checks":[{"kind":"file","path":"output/r.png"}]}`, "not under output/"},
		{"other input", `{` + q + `,"category":"image_audio","checks":[{"kind":"image","path":"output/r.png","brighter_than":"data/b.png"}]}`, "only input"},
		{"no checks", `{` + q + `,"category":"image_audio","checks":[]}`, "no checks"},
		{"unknown kind", `{` + q + `,"category":"image_audio","checks":[{"kind":"vibe"}]}`, "unknown kind"},
		{"short query", `{"query":"do it","category":"image_audio","checks":[{"kind":"file","path":"output/r.png"}]}`, "query"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseDraft(tc.text, f)
			if tc.wantErr == "" && err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.wantErr)
			}
		})
	}
}

func TestNearDuplicates(t *testing.T) {
	a := shingles("Remove the duplicate rows of sales.csv and save to output/clean.csv")
	b := shingles("Remove the duplicate rows of sales.csv and then save to output/clean.csv")
	c := shingles("Plot a bar chart of total amount per region")
	if j := jaccard(a, b); j < 0.5 {
		t.Errorf("near duplicates: jaccard %v", j)
	}
	if j := jaccard(a, c); j >= 0.5 {
		t.Errorf("different queries: jaccard %v", j)
	}
	if j := jaccard(shingles("统计每个地区的销售总额"), shingles("统计每个地区的销售总额并画图")); j < 0.5 {
		t.Errorf("chinese near duplicates: jaccard %v", j)
	}
}

func TestDraw(t *testing.T) {
	types := DefaultDictionary["table"]
	seen := map[string]bool{}
	for k := range 3 {
		tt := draw(types, "file1", "en", k)
		if len(tt.Keywords) != 2 || tt.Keywords[0] == tt.Keywords[1] {
			t.Errorf("keywords %v", tt.Keywords)
		}
		seen[tt.Subcategory] = true
		if again := draw(types, "file1", "en", k); again.Subcategory != tt.Subcategory || again.Keywords[0] != tt.Keywords[0] {
			t.Error("draw is not deterministic")
		}
	}
	if len(seen) != 3 {
		t.Errorf("three drafts drew %v", seen)
	}
}
