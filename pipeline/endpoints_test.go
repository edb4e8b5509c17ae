package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"synth/llm/llmtest"
	"synth/schemas"
)

// TestBuildDeadEndpoint: with nothing listening at the endpoint, build
// stops before any rollout, within the acceptance bound of 30 s, naming
// the endpoint, the error and the fix.
func TestBuildDeadEndpoint(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	url := llmtest.DeadURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := Build(ctx, openaiConfig(url), Options{Out: dir})
	if err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Build = %v, want a preflight error within 30 s", err)
	}
	for _, s := range []string{url, "connection refused", "is the server running"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
	trajs, _ := ReadAll[schemas.Trajectory](filepath.Join(dir, trajJournal))
	if len(trajs) != 0 {
		t.Errorf("%d rollouts journaled against a dead endpoint", len(trajs))
	}
	if _, err := os.Stat(filepath.Join(dir, datasetDataDir)); err == nil {
		t.Errorf("a dataset was written")
	}
}
