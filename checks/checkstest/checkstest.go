// Package checkstest starts the real sandbox the way verification runs it,
// for tests: the locked Python environment built, the checks library
// resident (as synth build and synth eval give it).
package checkstest

import (
	"testing"

	"synth/checks"
	"synth/pyenv/pyenvtest"
	"synth/sandbox"
)

// Backend is a sandbox backend with slots slots (0: the default) and the
// checks library resident, closed when t ends. t stops first when the
// locked environment is not built (pyenvtest.Python).
func Backend(t testing.TB, slots int) sandbox.Backend {
	t.Helper()
	pyenvtest.Python(t)
	b, err := sandbox.New(sandbox.Config{Slots: slots, Residents: []sandbox.Resident{checks.Resident()}})
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}
