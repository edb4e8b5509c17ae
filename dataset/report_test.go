package dataset

import (
	"strings"
	"testing"
)

func testReport() *Report {
	var s Stats
	yes, no := true, false
	s.Add(Sample{Category: "data_analysis", Turns: 2, Tokens: 100, Passed: &yes})
	s.Add(Sample{Category: "data_analysis", Turns: 5, Tokens: 300, Passed: &no})
	s.Add(Sample{Category: "a<b>", Turns: 12, Tokens: 900})
	rate := 0.5
	return &Report{
		Path: "out/dataset", Files: []string{"x.parquet"}, Stats: s,
		Funnel:          []FunnelStage{{Name: "verify", In: 4, Out: 2, Reasons: []ReasonTotal{{Reason: "check_failed", Count: 1}, {Reason: "sandbox_crash", Count: 1, Infra: true}}}},
		Failures:        []ReasonTotal{{Reason: "check_failed", Count: 1}},
		RolloutPassRate: &rate,
	}
}

func TestWriteHTML(t *testing.T) {
	var b strings.Builder
	if err := WriteHTML(&b, testReport()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<svg", "data_analysis", "a&lt;b&gt;", "check_failed", "rollout pass rate 50.0%", "sandbox_crash 1 (infrastructure)"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "http://", "https://", "a<b>"} {
		if strings.Contains(strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, ""), bad) {
			t.Errorf("page contains %q", bad)
		}
	}
}

func TestWriteText(t *testing.T) {
	var b strings.Builder
	if err := WriteText(&b, testReport()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"data_analysis", "total", "50.0%", "check_failed", "rollout pass rate: 50.0%"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestComparison(t *testing.T) {
	a, b := testReport(), testReport()
	b.Path = "PyInstruct/data"
	var text strings.Builder
	if err := WriteComparison(&text, []*Report{a, b}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"dataset", "out ", "PyInstruct"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("comparison lacks %q:\n%s", want, text.String())
		}
	}
	var page strings.Builder
	if err := WriteHTML(&page, a, b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<h2>Comparison</h2>") || strings.Count(page.String(), "<svg") != 2+2*3+2 {
		t.Errorf("page: comparison %v, %d charts", strings.Contains(page.String(), "Comparison"), strings.Count(page.String(), "<svg"))
	}
}
