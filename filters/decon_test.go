package filters

import (
	"strings"
	"testing"

	"synth/schemas"
)

func TestDecon(t *testing.T) {
	bench := []schemas.Task{
		{ID: "b1", Query: "Group the employees by department, compute the average salary of each department and draw a bar chart saved to ./output/salary.png", Files: []schemas.TaskFile{{ID: "sha-emp", Name: "employees.xlsx"}}},
		{ID: "b2", Query: "Detect the language of the article and count its ten most frequent words", Files: []schemas.TaskFile{{ID: "sha-art", Name: "article.txt"}}},
		{ID: "b3", Query: "求解方程 x^2 - 5x + 6 = 0 的所有实数根并给出验证过程和最终结果"},
	}
	for _, tc := range []struct {
		name    string
		task    *schemas.Task
		reason  string
		matched string
	}{
		{"clean", task("t1", "Plot the monthly revenue of the sales table as a line chart", "sha-sales"), "", ""},
		{"benchmark file", task("t2", "Summarise the table", "sha-emp"), ReasonBenchmarkFile, "benchmark task b1"},
		{"copied query", task("t3", "group the employees by department, compute the average salary of each department and draw a bar chart saved to ./output/salary.png", "sha-other"), ReasonBenchmarkQuery, "benchmark task b1"},
		{"query with a prefix", task("t4", "Please, using pandas: Group the employees by department, compute the average salary of each department and draw a bar chart saved to ./output/chart.png", "sha-x"), ReasonBenchmarkQuery, "benchmark task b1"},
		{"short copy", task("t5", "Detect the language of the article and count its ten most frequent words"), ReasonBenchmarkQuery, "benchmark task b2"},
		{"chinese copy", task("t6", "求解方程 x^2 - 5x + 6 = 0 的所有实数根并给出验证过程和最终结果。"), ReasonBenchmarkQuery, "benchmark task b3"},
		{"shares a few words", task("t7", "Group the customers by region and count them"), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDecontaminator(Config{}, bench)
			ok, reason, matched := d.Check(tc.task)
			if reason != tc.reason || ok != (tc.reason == "") {
				t.Fatalf("Check = %v %q %q, want %q", ok, reason, matched, tc.reason)
			}
			if !strings.Contains(matched, tc.matched) {
				t.Errorf("matched %q, want it to name %q", matched, tc.matched)
			}
		})
	}
	d := NewDecontaminator(Config{Decon: DeconConfig{Off: true}}, bench)
	if ok, _, _ := d.Check(task("t", bench[0].Query, "sha-emp")); !ok {
		t.Error("off: task dropped")
	}
}
