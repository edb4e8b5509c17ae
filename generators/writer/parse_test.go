package writer

import (
	"strings"
	"testing"

	"synth/schemas"
)

func TestParseDraft(t *testing.T) {
	f := schemas.File{Name: "a.png", Type: "png"}
	const q = `"query":"Rotate ./data/a.png by 90 degrees and save ./output/r.png"`
	const ref = `,"reference":{"steps":[{"code":"from PIL import Image\nImage.open('data/a.png').rotate(90).save('output/r.png')"}],"answer":"saved"}`
	const rot = `{"kind":"image","path":"./output/r.png","compare":{"ref":"data/a.png","transform":"rotate90","min_similarity":0.9}}`
	tests := []struct {
		name    string
		text    string
		wantErr string
		reason  string
	}{
		{"ok", `{` + q + `,"category":"image_audio","outputs":["./output/r.png"],"checks":[` + rot + `]` + ref + `}`, "", ""},
		{"prose around", "Here:\n{" + q + `,"category":"image_audio","checks":[` + rot + `]` + ref + `} hope it helps {`, "", ""},
		{"no json", "I cannot", "no valid JSON", DropUnparsable},
		{"no reference", `{` + q + `,"category":"image_audio","checks":[` + rot + `]}`, `"reference" is missing`, DropUnparsable},
		{"reference without code", `{` + q + `,"category":"image_audio","checks":[` + rot + `],"reference":{"steps":[{"code":" "}],"answer":"x"}}`, "no steps with code", DropUnparsable},
		{"bad category", `{` + q + `,"category":"images","checks":[` + rot + `]` + ref + `}`, "category", DropUnparsable},
		{"output without check", `{` + q + `,"category":"image_audio","outputs":["output/r.png","output/s.png"],"checks":[` + rot + `]` + ref + `}`, "output/s.png has no check", DropUnparsable},
		{"query output without check", `{"query":"Rotate ./data/a.png and save ./output/r.png and ./output/t.png.","category":"image_audio","checks":[` + rot + `]` + ref + `}`, "output/t.png has no check", DropUnparsable},
		{"existence only", `{` + q + `,"category":"image_audio","checks":[{"kind":"file","path":"output/r.png","exists":true,"type":"png"}]` + ref + `}`, "only an existence check", DropTrivial},
		{"output outside", `{` + q + `,"category":"image_audio","outputs":["/tmp/r.png"],"checks":[` + rot + `]` + ref + `}`, "not under output/", DropUnparsable},
		{"other input", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"image","path":"output/r.png","brighter_than":"data/b.png"}]` + ref + `}`, "only input", DropUnparsable},
		{"no checks", `{` + q + `,"category":"image_audio","checks":[]` + ref + `}`, "has no check", DropUnparsable},
		{"unknown kind", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"vibe"}]` + ref + `}`, "unknown kind", DropUnparsable},
		{"short query", `{"query":"do it","category":"image_audio","checks":[` + rot + `]` + ref + `}`, "query", DropUnparsable},
		{"value and expr", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"answer","number":{"value":1,"expr":"1"}}]` + ref + `}`, "not both", DropUnparsable},
		{"assert True", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"python","code":"assert True  # answer"}]` + ref + `}`, "constant assert", DropTrivial},
		{"python reads only the input", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"python","code":"import os\nassert os.path.exists('data/a.png')"}]` + ref + `}`, "reads only the input", DropTrivial},
		{"check of the input", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"image","path":"data/a.png","width":10}]` + ref + `}`, "reads only the input", DropTrivial},
		{"regex dot", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"answer","regex":"."}]` + ref + `}`, "matches any text", DropTrivial},
		{"regex empty match", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"answer","regex":"\\d*"}]` + ref + `}`, "matches the empty text", DropTrivial},
		{"huge tolerance", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"answer","number":{"value":12,"abs_tol":100}}]` + ref + `}`, "wider than the value", DropTrivial},
		{"loose rel_tol", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"answer","number":{"value":12,"rel_tol":0.5}}]` + ref + `}`, "wider than 10%", DropTrivial},
		{"stop words", `{` + q + `,"category":"image_audio","checks":[` + rot + `,{"kind":"answer","contains_any":["rotated","the"]}]` + ref + `}`, `contains_any "the"`, DropTrivial},
		{"trivial and malformed", `{` + q + `,"category":"images","checks":[` + rot + `,{"kind":"answer","regex":".*"}]` + ref + `}`, "category", DropUnparsable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ps := parseDraft(tc.text, f)
			if tc.wantErr == "" && ps != nil {
				t.Fatalf("unexpected problems: %v", ps)
			}
			if tc.wantErr == "" {
				return
			}
			if ps == nil || !strings.Contains(ps.Error(), tc.wantErr) {
				t.Fatalf("problems = %v, want one mentioning %q", ps, tc.wantErr)
			}
			if ps.reason() != tc.reason {
				t.Errorf("reason %s, want %s", ps.reason(), tc.reason)
			}
		})
	}
}

func TestParseDraftExpressions(t *testing.T) {
	f := schemas.File{Name: "x.csv", Type: "csv"}
	text := `{"query":"Deduplicate ./data/x.csv into ./output/d.csv and give the mean price.","category":"data_analysis",
		"checks":[{"kind":"table","path":"output/d.csv","rows":{"expr":"len(pd.read_csv('data/x.csv').drop_duplicates())"}},
		{"kind":"answer","number":{"expr":"pd.read_csv('data/x.csv')['price'].mean()","rel_tol":1e-6}}],
		"reference":{"steps":[{"code":"print(1)"}],"answer":"1"},
		"wrong_solution":{"steps":[{"code":"print(2)"}],"answer":"2"}}`
	p, ps := parseDraft(text, f)
	if ps != nil {
		t.Fatal(ps)
	}
	if len(p.exprs) != 2 || p.exprs[0].field != "rows" || p.exprs[1].field != "number" || p.exprs[1].check != 1 ||
		!strings.Contains(p.exprs[1].code, "mean()") {
		t.Fatalf("exprs = %+v", p.exprs)
	}
	if n := p.task.Checks[1].Number; n == nil || n.RelTol != 1e-6 {
		t.Errorf("number = %+v", n)
	}
	if p.wrong == nil || p.wrong.Answer != "2" || p.task.Reference.Answer != "1" {
		t.Errorf("solutions: %+v %+v", p.task.Reference, p.wrong)
	}
	if len(p.task.Outputs) != 1 || p.task.Outputs[0] != "output/d.csv" {
		t.Errorf("outputs from the query: %v", p.task.Outputs)
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
