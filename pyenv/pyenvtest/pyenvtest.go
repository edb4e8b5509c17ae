// Package pyenvtest gives tests the locked sandbox environment's interpreter,
// or stops a test that needs one: a skip on a developer's machine, a failure
// under CI=true, where make test builds every environment.
package pyenvtest

import (
	"testing"

	"synth/internal/testenv"
	"synth/pyenv"
)

// Python returns the sandbox environment's interpreter. When it is not
// built, the test is skipped, or failed under CI=true, with the command
// that builds it.
func Python(t testing.TB) string {
	t.Helper()
	env := pyenv.Sandbox
	if env.Built() {
		return env.Python()
	}
	testenv.Missing(t, "needs the locked sandbox environment %s: run scripts/pyenv.sh sandbox (make deps)", env.Dir())
	return ""
}
