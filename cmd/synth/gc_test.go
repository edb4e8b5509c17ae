package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestCollectSooner: synth runs at gcPercent unless GOGC says otherwise.
func TestCollectSooner(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	collectSooner()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC, the collector runs at %d%%, want %d%%", got, gcPercent)
	}
	t.Setenv("GOGC", "100")
	collectSooner()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=100, the collector runs at %d%%, want GOGC's 100%%", got)
	}
}
