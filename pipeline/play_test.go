package pipeline

import (
	"runtime"
	"testing"

	"synth/sandbox"
)

func TestInFlight(t *testing.T) {
	cpus := max(2, runtime.NumCPU())
	tests := []struct {
		name        string
		configured  int
		kind        string
		slots, want int
	}{
		{"configured wins", 5, "openai", 3, 5},
		{"sandbox slots next", 0, "openai", 3, 3},
		{"a teacher at an endpoint waits on it", 0, "openai", 0, 16},
		{"an offline teacher is bound by the CPUs", 0, "reference", 0, cpus},
	}
	for _, tc := range tests {
		if got := inFlight(tc.configured, tc.kind, tc.slots); got != tc.want {
			t.Errorf("%s: inFlight(%d, %q, %d) = %d, want %d", tc.name, tc.configured, tc.kind, tc.slots, got, tc.want)
		}
	}
	if got := withSlots(sandbox.Config{}, 16).Slots; got != 16 {
		t.Errorf("unset slots become %d, want one per rollout in flight (16)", got)
	}
	if got := withSlots(sandbox.Config{Slots: 4}, 16).Slots; got != 4 {
		t.Errorf("configured slots become %d, want 4", got)
	}
}
