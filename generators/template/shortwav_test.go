package template

import (
	"context"
	"math"
	"testing"

	"synth/generators"
	"synth/pyenv/pyenvtest"
	"synth/sources/sample"
)

// monoWAV is a 16-bit mono WAV of a tone lasting seconds at rate Hz.
func monoWAV(seconds float64, rate int) []byte {
	xs := make([]float64, int(seconds*float64(rate)))
	for i := range xs {
		xs[i] = 0.25 * math.Sin(float64(i)*2*math.Pi*440/float64(rate))
	}
	return sample.WAV(xs, rate)
}

// TestShortRecordingsTasked: a spoken digit (0.25 s) is timed and
// converted, and its tasks prove; a click of 0.1 s gets no task.
func TestShortRecordingsTasked(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	ins := []generators.Input{
		writeFile(t, dir, "digit.wav", "wav", monoWAV(0.25, 8000)),
		writeFile(t, dir, "click.wav", "wav", monoWAV(0.1, 8000)),
	}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"audio.duration", "audio.convert"}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, task := range tasks {
		got[task.Files[0].Name]++
	}
	if got["digit.wav"] == 0 || got["click.wav"] != 0 {
		t.Errorf("tasks per file %v, want some on digit.wav and none on click.wav", got)
	}
	validateAll(t, tasks, inputPaths(ins))
}
