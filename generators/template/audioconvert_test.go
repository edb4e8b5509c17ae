package template

import (
	"math"
	"testing"

	"synth/generators"
	"synth/pyenv/pyenvtest"
	"synth/sources/sample"
)

// risingWAV is a 16-bit mono WAV of seconds at rate Hz shaped like a
// spoken word: a tone whose loudness rises through the clip, with a short
// pause in its middle, so that its start, end and direction all differ.
func risingWAV(seconds float64, rate int) []byte {
	xs := make([]float64, int(seconds*float64(rate)))
	for i := range xs {
		pos := float64(i) / float64(len(xs))
		amp := 0.06 + 0.37*pos
		if pos > 0.45 && pos < 0.5 {
			amp = 0
		}
		xs[i] = amp * math.Sin(float64(i)*2*math.Pi*300/float64(rate))
	}
	return sample.WAV(xs, rate)
}

// TestAudioConvertHearsTheWholeClip: on a clip as short as a spoken digit
// (0.4 s, where the duration's tolerance for an encoder's padding is half
// the clip), converting only its first half, silencing its second half or
// reversing it fails; ffmpeg's own conversion passes.
func TestAudioConvertHearsTheWholeClip(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeFile(t, t.TempDir(), "digit.wav", "wav", risingWAV(0.4, 8000))}
	before := "a.export("
	judge(t, ins, "audio.convert",
		[]solution{
			{name: "only the first half converted", replace: []string{before, "a = a[:len(a) // 2]\n" + before}},
			{name: "the second half silenced", replace: []string{before, "a = a[:len(a) // 2] + AudioSegment.silent(duration=len(a) - len(a) // 2, frame_rate=a.frame_rate)\n" + before}},
			{name: "reversed", replace: []string{before, "a = a.reverse()\n" + before}},
		},
		[]solution{
			{name: "ffmpeg on the command line", own: true, steps: []string{
				"import os, subprocess\nos.makedirs(os.path.dirname(OUT) or '.', exist_ok=True)\n" +
					"subprocess.run(['ffmpeg', '-loglevel', 'error', '-y', '-i', 'data/digit.wav', '-b:a', '64k', OUT], check=True)\nprint('done')"}},
		})
}
