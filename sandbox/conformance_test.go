package sandbox_test

import (
	"testing"

	"synth/pyenv"
	"synth/pyenv/pyenvtest"
	"synth/sandbox"
	"synth/sandbox/sandboxtest"
)

func TestLocalConformance(t *testing.T) {
	for _, iso := range []string{sandbox.IsolationAuto, sandbox.IsolationOff} {
		t.Run(iso, func(t *testing.T) {
			pyenvtest.Python(t)
			if iso == sandbox.IsolationOff && testing.Short() {
				t.Skip("starts a second zygote")
			}
			b, err := sandbox.New(sandbox.Config{Python: pyenv.Sandbox.Python(), Isolation: iso, Slots: 8})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			sandboxtest.Run(t, b)
		})
	}
}
