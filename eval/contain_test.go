package eval

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"synth/llm/llmtest"
	"synth/pyenv/pyenvtest"
)

// needPython stops the test (see pyenvtest) when the locked environment is
// not built.
func needPython(t *testing.T) {
	t.Helper()
	pyenvtest.Python(t)
}

// TestEvalRefusesSymlinkedInputs: a benchmark folder whose input is a
// symlink to a host file is refused with an error naming it, before any
// sandbox sees the file.
func TestEvalRefusesSymlinkedInputs(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-a", evalBench+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	secret := filepath.Join(t.TempDir(), "secret.csv")
	os.WriteFile(secret, []byte("x\n1\n"), 0o600)
	nums := filepath.Join(dir, "data", "nums.csv")
	os.Remove(nums)
	if err := os.Symlink(secret, nums); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, llmtest.Say("Finished: 1"))
	cfg := evalConfig(TeacherOpenAI, srv.URL)
	cfg.Bench = dir
	_, err := Evaluate(context.Background(), cfg, Options{Out: t.TempDir(), Backend: sharedEvalBackend(t)})
	if err == nil || !strings.Contains(err.Error(), "data/nums.csv is a symlink") {
		t.Fatalf("err %v, want one naming data/nums.csv as a symlink", err)
	}
	if srv.Count() != 0 {
		t.Errorf("%d requests sent for a refused benchmark", srv.Count())
	}
}
