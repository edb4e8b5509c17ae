package main

import (
	"path/filepath"
	"strings"
	"testing"

	"synth/checks/adversary"
)

// TestEvalAdversariesScoreZero plays every adversary as the model through
// the real rollout path (its files written by a cell, shadow modules at the
// workspace root included, collected, verified in a fresh sandbox): each
// scores 0% on a valid benchmark.
func TestEvalAdversariesScoreZero(t *testing.T) {
	dir := t.TempDir()
	for _, name := range adversary.Names() {
		t.Run(name, func(t *testing.T) {
			out, err := runSynth(t, "", "eval", "--bench", evalFixture, "--teacher", "adversary:"+name, "-o", filepath.Join(dir, name), "--max-turns", "3")
			if err != nil || !strings.Contains(out, "pass rate 0.0% (0/4 rollouts)") {
				t.Fatalf("adversary %s: %v\n%s", name, err, out)
			}
		})
	}
	out, err := runSynth(t, "", "eval", "--bench", evalFixture, "--teacher", "adversary:nope", "-o", filepath.Join(dir, "nope"))
	if err == nil || !strings.Contains(err.Error()+out, "no adversary") {
		t.Fatalf("an unknown adversary: %v\n%s", err, out)
	}
}
