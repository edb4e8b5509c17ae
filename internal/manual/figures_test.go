package manual

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/schemas"
)

func demoFixture() Demo {
	var d Demo
	for _, s := range []schemas.StageTime{
		{Stage: "collect", Out: 91, CPUSeconds: 1}, {Stage: "generate", In: 91, Out: 668},
		{Stage: "validate", In: 129, Out: 129, CPUSeconds: 29}, {Stage: "rollout", In: 384, Out: 384, CPUSeconds: 45},
	} {
		d.Stages = append(d.Stages, s)
	}
	d.Counts.Rows = 383
	return d
}

const funnelPage = "```\n     stage   in  out\n   collect    -   91  files\n  generate   91  668  tasks\n  validate  129  129  valid\n   rollout  384  384  trajectories\n```\n"

// TestFiguresCatchDrift: a funnel or a marked figure that is not the
// demo's is named; the demo's own figures pass.
func TestFiguresCatchDrift(t *testing.T) {
	d := demoFixture()
	ok := funnelPage + "\n" + FiguresMarker + "\nabout 80 CPU-seconds for 668 tasks, 129 benchmark tasks, 384 training rollouts and 383 rows.\n\nunchecked: 1 rows.\n"
	if bad := Figures("ok.md", ok, d); len(bad) != 0 {
		t.Fatalf("the demo's own figures disagree: %v", bad)
	}
	noCPU := d
	noCPU.Stages = append([]schemas.StageTime(nil), d.Stages...)
	for i := range noCPU.Stages {
		noCPU.Stages[i].CPUSeconds = 0
	}
	if bad := Figures("p.md", FiguresMarker+"\nabout 164 CPU-seconds for 668 tasks\n", noCPU); len(bad) != 0 {
		t.Errorf("a demo without CPU times checks CPU-seconds: %v", bad)
	}
	quoted := "the marker `" + FiguresMarker + "` in a line: 1 rows\n"
	if bad := Figures("p.md", quoted, d); len(bad) != 0 {
		t.Errorf("the marker quoted inside a line marks a paragraph: %v", bad)
	}
	for _, tc := range []struct{ name, page, want string }{
		{"funnel count", strings.Replace(funnelPage, "384  384", "384  383", 1), "funnel line 4"},
		{"funnel stage missing", strings.Replace(funnelPage, "  validate  129  129  valid\n", "", 1), "3 stages, the demo 4"},
		{"benchmark tasks", FiguresMarker + "\n134 benchmark tasks\n", `"134 benchmark tasks", the demo 129`},
		{"rollouts", FiguresMarker + "\n363 training rollouts\n", `"363 training rollouts", the demo 384`},
		{"rows", FiguresMarker + "\n1,383 rows\n", `the demo 383 rows`},
		{"cpu", FiguresMarker + "\nabout 164 CPU-seconds\n", "the demo took 75.0 CPU-seconds"},
		{"nothing to check", FiguresMarker + "\nsome words\n", "quotes no figure"},
		{"quoted marker marks nothing", "the marker `" + FiguresMarker + "` in a line\n\n" + FiguresMarker + "\n134 benchmark tasks\n", `"134 benchmark tasks", the demo 129`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := Figures("p.md", tc.page, d)
			if len(bad) == 0 || !strings.Contains(strings.Join(bad, "\n"), tc.want) {
				t.Errorf("Figures = %q, want a line containing %q", bad, tc.want)
			}
		})
	}
}

// TestDemoRunJSON: ReadDemo reads the stage times and counts run.json
// records, and refuses a folder without them.
func TestDemoRunJSON(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadDemo(dir); err == nil || !strings.Contains(err.Error(), "make demo") {
		t.Errorf("a folder without run.json: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "run.json"), []byte(`{"counts":{"bench_tasks":2,"rows":3},"stage_times":[{"stage":"collect","cpu_seconds":1.5,"in":0,"out":4},{"stage":"rollout","cpu_seconds":2,"in":3,"out":3}]}`), 0o644)
	d, err := ReadDemo(dir)
	if err != nil || d.Counts.Rows != 3 || len(d.Stages) != 2 || d.CPUSeconds() != 3.5 {
		t.Errorf("ReadDemo = %+v, %v", d, err)
	}
}
