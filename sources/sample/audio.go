package sample

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
)

const audioRate = 16000

// WAV encodes mono samples in -1..1 as 16-bit PCM WAV at rate Hz (tests
// elsewhere write their recordings with it too).
func WAV(samples []float64, rate int) []byte {
	var b bytes.Buffer
	n := len(samples) * 2
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+n))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(rate), uint32(rate * 2), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(n))
	for _, s := range samples {
		v := math.Max(-1, math.Min(1, s))
		binary.Write(&b, binary.LittleEndian, int16(v*32767))
	}
	return b.Bytes()
}

// makeChime is a melody of sine tones with soft attacks, about 4 seconds.
func makeChime(r *rand.Rand) ([]byte, error) {
	notes := []float64{261.63, 293.66, 329.63, 392.0, 440.0, 523.25}
	var out []float64
	for i := 0; i < 8; i++ {
		f := notes[r.IntN(len(notes))]
		n := audioRate / 2
		for k := 0; k < n; k++ {
			t := float64(k) / audioRate
			env := math.Min(1, t*40) * math.Exp(-t*2.5)
			out = append(out, 0.4*env*(math.Sin(2*math.Pi*f*t)+0.3*math.Sin(4*math.Pi*f*t)))
		}
	}
	return WAV(out, audioRate), nil
}

// makeSpeech is speech-like noise: bursts of filtered noise with a
// syllable rhythm and a voiced pitch, separated by pauses, about 5 seconds.
func makeSpeech(r *rand.Rand) ([]byte, error) {
	total := 5 * audioRate
	out := make([]float64, total)
	lp := 0.0
	pos := audioRate / 4
	for pos < total-audioRate/4 {
		syl := audioRate/8 + r.IntN(audioRate/6)
		pitch := 110 + r.Float64()*60
		for k := 0; k < syl && pos+k < total; k++ {
			t := float64(k) / float64(syl)
			env := math.Sin(math.Pi * t)
			lp = 0.8*lp + 0.2*(r.Float64()*2-1)
			voiced := math.Sin(2*math.Pi*pitch*float64(k)/audioRate) + 0.5*math.Sin(4*math.Pi*pitch*float64(k)/audioRate)
			out[pos+k] = 0.35 * env * (0.6*voiced + 0.8*lp)
		}
		pos += syl
		if r.IntN(3) == 0 {
			pos += audioRate/5 + r.IntN(audioRate/4) // a pause between words
		} else {
			pos += audioRate / 40
		}
	}
	return WAV(out, audioRate), nil
}
