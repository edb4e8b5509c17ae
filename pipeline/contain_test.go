package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"synth/agent"
	"synth/llm/llmtest"
	"synth/rundir"
	"synth/schemas"
)

// TestHostileRolloutsDoNotStopTheBuild: rollouts that leave a FIFO, a
// symlink to /etc, a tree deeper than PATH_MAX or too many files under
// output/ are recorded as failed with the reason; the build finishes, no
// host file reaches artifacts/, and the rerun from the cache does too.
func TestHostileRolloutsDoNotStopTheBuild(t *testing.T) {
	needPython(t)
	hostile := []string{
		"import os\nos.mkfifo('output/result.csv')",
		"import os\nos.symlink('/etc', 'output/etc')",
		"import os\nos.chdir('output')\nfor i in range(200):\n    os.mkdir('d' * 50)\n    os.chdir('d' * 50)\nopen('f', 'w').write('x')",
		"for i in range(3000):\n    open('output/%d.txt' % i, 'w').write('x')",
	}
	format := agent.NewPyBench()
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, func(c llmtest.Call) llmtest.Reply {
		if c.Turn() == 0 {
			code := hostile[len(c.Query())%len(hostile)]
			return llmtest.Reply{Content: format.Render(agent.Action{Code: code}, "Write the output.").Content}
		}
		return llmtest.Reply{Content: "Finished: done"}
	})
	cfg := openaiConfig(srv.URL)
	sum, err := Build(context.Background(), cfg, Options{Out: dir})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	trajs, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	reasons := map[string]int{}
	for _, tr := range trajs {
		reasons[tr.Verdict.Failure]++
	}
	if reasons[schemas.FailArtifactError] == 0 || reasons[schemas.FailArtifactLimit] == 0 {
		t.Fatalf("failures %v, want artifact_error and artifact_limit", reasons)
	}
	if sum.Failures[schemas.FailArtifactError] != reasons[schemas.FailArtifactError] {
		t.Errorf("summary counts %v, journal %v", sum.Failures, reasons)
	}
	passwd, _ := os.ReadFile("/etc/passwd")
	filepath.WalkDir(filepath.Join(dir, rundir.ArtifactsDir), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); bytes.Equal(b, passwd) {
				t.Errorf("host file /etc/passwd collected as %s", p)
			}
		}
		return nil
	})
	n := srv.Count()
	if _, err := Build(context.Background(), cfg, Options{Out: dir}); err != nil {
		t.Fatalf("rerun: %v", err)
	}
	if srv.Count() != n {
		t.Errorf("the rerun sent %d requests", srv.Count()-n)
	}
}
