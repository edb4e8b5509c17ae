package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"synth/pyenv"
)

// TestServeUsage: synth serve names what is wrong in how it was called
// (exit 2) and what is wrong with DIR (exit 1), before it listens.
func TestServeUsage(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		usage bool
		says  string
	}{
		{[]string{"serve"}, true, "serve needs one DIR"},
		{[]string{"serve", evalFixture, "--format", "chatml"}, true, "want pybench or openai-tools"},
		{[]string{"serve", evalFixture, "--max-episodes", "0"}, true, "--max-episodes 0"},
		{[]string{"serve", evalFixture, "--spares", "-1", "--addr", "no-such-host:-1"}, true, "--spares -1"},
		{[]string{"serve", evalFixture, "--token-env", "SYNTH_TEST_NO_SUCH_TOKEN"}, true, "export SYNTH_TEST_NO_SUCH_TOKEN=TOKEN"},
		{[]string{"serve", t.TempDir()}, false, "neither a benchmark folder"},
	} {
		out, err := runSynth(t, "", tc.args...)
		var ue usageError
		if err == nil || errors.As(err, &ue) != tc.usage || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("synth %s: %v (usage %v), want %q\n%s", strings.Join(tc.args, " "), err, errors.As(err, &ue), tc.says, out)
		}
	}
}

// TestServeOpenEnvClient runs scripts/serve-client-test.sh: openenv-core's
// own client plays every reference solution of the fixture benchmark to
// reward 1 and an empty and a forging episode to 0 against synth serve on
// loopback, and synth serve records them and exits 0 on SIGINT. It needs the
// serve environment (scripts/pyenv.sh serve; make test builds it): without
// it the test skips, and under CI=true fails.
func TestServeOpenEnvClient(t *testing.T) {
	lock, err := os.ReadFile("../../pyenv/serve.lock")
	if err != nil {
		t.Fatal(err)
	}
	if env := (pyenv.Env{Name: "serve", Lock: lock}); !env.Built() {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the serve environment %s is not built (scripts/pyenv.sh serve)", env.Dir())
		}
		t.Skipf("needs the serve environment %s (scripts/pyenv.sh serve)", env.Dir())
	}
	if _, err := os.Stat(pyenv.Sandbox.Python()); err != nil {
		t.Skip("needs the locked sandbox environment (scripts/pyenv.sh sandbox)")
	}
	cmd := exec.Command("../../scripts/serve-client-test.sh")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/serve-client-test.sh: %v\n%s", err, out)
	}
	for _, want := range []string{"8 passed", "7 episodes recorded, 5 with reward 1"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("scripts/serve-client-test.sh did not say %q:\n%s", want, out)
		}
	}
	t.Logf("%s", out)
}
