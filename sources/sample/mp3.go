package sample

import (
	"bytes"
	"math/rand/v2"
)

// makeSilentMP3 writes an MPEG-1 Layer III stream (128 kbit/s, 44.1 kHz,
// mono) of silent frames: every frame's side information is zero, so a
// decoder produces silence of an exact length. It stands in for an MP3
// recording where a task only needs the container (duration, conversion).
func makeSilentMP3(r *rand.Rand) ([]byte, error) {
	seconds := 3 + r.IntN(3)
	frames := seconds * 44100 / 1152
	var b bytes.Buffer
	for i := 0; i < frames; i++ {
		// 0xFFFB: sync, MPEG-1, Layer III, no CRC; 0x90: 128 kbit/s, 44.1 kHz,
		// no padding; 0xC0: mono.
		frame := make([]byte, 417)
		copy(frame, []byte{0xFF, 0xFB, 0x90, 0xC0})
		b.Write(frame)
	}
	return b.Bytes(), nil
}
