package template

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"synth/generators"
	"synth/pyenv"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

// silentMP3 is n MPEG-1 Layer III frames of silence (128 kbps, 44.1 kHz,
// stereo), after an Info frame whose LAME tag states delay and pad
// samples when lame is set.
func silentMP3(n, delay, pad int, lame bool) []byte {
	const size = 417 // 144 * 128000 / 44100
	frame := func() []byte {
		f := make([]byte, size)
		copy(f, []byte{0xFF, 0xFB, 0x90, 0x00})
		return f
	}
	var b []byte
	if lame {
		info := frame()
		t := 4 + 32
		copy(info[t:], "Info")
		info[t+7] = 0x01 // the frame count field only
		c := n           // the audio frames
		info[t+8], info[t+9], info[t+10], info[t+11] = byte(c>>24), byte(c>>16), byte(c>>8), byte(c)
		l := t + 12
		copy(info[l:], "LAME3.100")
		info[l+21] = byte(delay >> 4)
		info[l+22] = byte(delay<<4) | byte(pad>>8)
		info[l+23] = byte(pad)
		b = append(b, info...)
	}
	for range n {
		b = append(b, frame()...)
	}
	return b
}

// TestMP3SecondsAgree: the duration the Go side expects is the one pydub
// (ffmpeg) reports, with an encoder's Info frame, delay and padding (more
// or less than the decoder's own 529 samples), and without.
func TestMP3SecondsAgree(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	cases := []struct {
		name       string
		delay, pad int
		lame       bool
	}{{"lame", 576, 1200, true}, {"short padding", 576, 100, true}, {"no padding", 1105, 0, true}, {"no tag", 0, 0, false}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name+".mp3")
			if err := os.WriteFile(p, silentMP3(120, tc.delay, tc.pad, tc.lame), 0o644); err != nil {
				t.Fatal(err)
			}
			c := &bctx{files: []generators.Input{{File: schemas.File{Name: tc.name + ".mp3", Type: "mp3"}, Path: p}}, cache: newParsed()}
			got := c.mp3Seconds(0)
			out, err := exec.Command(pyenv.Sandbox.Python(), "-c", "from pydub import AudioSegment\nprint(AudioSegment.from_file("+strconv.Quote(p)+").duration_seconds)").CombinedOutput()
			if err != nil {
				t.Fatalf("pydub: %v\n%s", err, out)
			}
			want, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
			if err != nil {
				t.Fatalf("pydub printed %q", out)
			}
			if d := got - want; d > 0.001 || d < -0.001 {
				t.Fatalf("Go reads %.6f s, pydub %.6f s", got, want)
			}
		})
	}
}

// TestMP3DurationAcceptsBothReadings: an MP3's duration task accepts the
// decoded length and the container's, a frame apart, and no further.
func TestMP3DurationAcceptsBothReadings(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tone.mp3")
	if err := os.WriteFile(p, silentMP3(120, 576, 1200, true), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &bctx{files: []generators.Input{{File: schemas.File{Name: "tone.mp3", Type: "mp3"}, Path: p}}, cache: newParsed()}
	specs, err := buildDuration(c)
	if err != nil || len(specs) != 1 {
		t.Fatalf("%d specs, %v", len(specs), err)
	}
	m := specs[0].checks[0].Number
	decoded := c.mp3Seconds(0)
	for _, frame := range []float64{1152.0 / 44100, 1152.0 / 32000} {
		if got := decoded + frame; got-m.Value > m.AbsTol || m.Value-(decoded-frame) > m.AbsTol {
			t.Errorf("a frame (%.3f s) from the decoded %.3f s is refused: expected %.3f ± %.3f", frame, decoded, m.Value, m.AbsTol)
		}
	}
	if m.AbsTol > 0.1 {
		t.Errorf("tolerance %.3f s accepts a wrong duration", m.AbsTol)
	}
}
