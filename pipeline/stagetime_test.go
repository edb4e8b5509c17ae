package pipeline

import (
	"context"
	"strings"
	"testing"

	"synth/dataset"
	"synth/runinfo"
)

func TestRunJSONRecordsEveryStage(t *testing.T) {
	dir, _ := buildOnce(t)
	// run.json holds the last build's stages: build again (up to date) so
	// this test compares with that build whatever ran before it.
	sum, err := Build(context.Background(), quickConfig(), Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	info, err := runinfo.Read(dir)
	if err != nil || info == nil {
		t.Fatalf("run.json: %v", err)
	}
	if len(info.StageTimes) != len(sum.Stages) {
		t.Fatalf("run.json has %d stage times for %d funnel lines", len(info.StageTimes), len(sum.Stages))
	}
	for i, st := range info.StageTimes {
		want := sum.Stages[i]
		if st.Stage != want.Stage || st.In != want.In || st.Out != want.Out {
			t.Errorf("stage time %d = %s %d→%d, funnel says %s %d→%d", i, st.Stage, st.In, st.Out, want.Stage, want.In, want.Out)
		}
		if st.Ended.Before(st.Started) || st.CPUSeconds < 0 {
			t.Errorf("stage %s: started %v, ended %v, cpu %v", st.Stage, st.Started, st.Ended, st.CPUSeconds)
		}
		if i > 0 && !st.Started.Equal(info.StageTimes[i-1].Ended) {
			t.Errorf("stage %s starts at %v, not where %s ended (%v)", st.Stage, st.Started, info.StageTimes[i-1].Stage, info.StageTimes[i-1].Ended)
		}
	}
	var cpu float64
	for _, st := range info.StageTimes {
		cpu += st.CPUSeconds
	}
	if cpu <= 0 {
		t.Error("the build's stages used no CPU at all")
	}

	rep, err := dataset.ReadStats(dir, dataset.TokensSourceColumn)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := dataset.WriteText(&out, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "stage times") || !strings.Contains(out.String(), "rollout") {
		t.Errorf("synth stats shows no stage times:\n%s", out.String())
	}
}
