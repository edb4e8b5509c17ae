package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"synth/pyenv"
)

// TestTwoServers runs scripts/serve-two-test.sh: two synth serve processes
// on one machine have their own ports, episode ids, workspaces and
// cgroups, neither sees the other's episodes or files, a third starting
// beside them disturbs neither, and none leaves anything behind after
// SIGINT. Without the sandbox environment it skips, and under CI=true
// fails.
func TestTwoServers(t *testing.T) {
	if _, err := os.Stat(pyenv.Sandbox.Python()); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the sandbox environment is not built (scripts/pyenv.sh sandbox): %v", err)
		}
		t.Skip("needs the locked sandbox environment (scripts/pyenv.sh sandbox)")
	}
	out, err := exec.Command("../../scripts/serve-two-test.sh").CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/serve-two-test.sh: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "serve-two-test: ok") {
		t.Fatalf("scripts/serve-two-test.sh did not say ok:\n%s", out)
	}
	t.Logf("%s", out)
}
