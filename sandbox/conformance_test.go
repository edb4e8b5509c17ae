package sandbox_test

import (
	"os"
	"testing"

	"synth/sandbox"
	"synth/sandbox/sandboxtest"
)

func TestLocalConformance(t *testing.T) {
	for _, iso := range []string{sandbox.IsolationAuto, sandbox.IsolationOff} {
		t.Run(iso, func(t *testing.T) {
			if _, err := os.Stat("/usr/bin/python3"); err != nil {
				t.Skip("needs /usr/bin/python3")
			}
			if iso == sandbox.IsolationOff && testing.Short() {
				t.Skip("starts a second zygote")
			}
			b, err := sandbox.New(sandbox.Config{Python: "/usr/bin/python3", Isolation: iso, Slots: 8})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			sandboxtest.Run(t, b)
		})
	}
}
