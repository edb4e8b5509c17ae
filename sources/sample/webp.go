package sample

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"math/bits"
	"math/rand/v2"
)

// bitWriter packs bits least significant first, as VP8L reads them.
type bitWriter struct {
	buf  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) write(v uint64, n uint) {
	w.acc |= v << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

func (w *bitWriter) bytes() []byte {
	if w.nacc > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc, w.nacc = 0, 0
	}
	return w.buf
}

// writeFlatCode writes a normal prefix code giving the first 256 symbols of
// an alphabet length 8 and the rest length 0, using a code-length code of
// two one-bit symbols (0 and 8).
func (w *bitWriter) writeFlatCode(alphabet int) {
	w.write(0, 1) // normal code
	// kCodeLengthCodeOrder = 17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, …: 12 entries reach symbol 8.
	w.write(12-4, 4)
	for _, sym := range []int{17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8} {
		if sym == 0 || sym == 8 {
			w.write(1, 3)
		} else {
			w.write(0, 3)
		}
	}
	w.write(0, 1) // max_symbol = alphabet size
	for s := 0; s < alphabet; s++ {
		if s < 256 {
			w.write(1, 1) // code-length symbol 8 has code 1
		} else {
			w.write(0, 1) // symbol 0
		}
	}
}

// encodeWebP writes img as a lossless WebP (VP8L) with fixed 8-bit codes:
// no transforms and no compression to speak of, but a valid file any
// decoder reads exactly.
func encodeWebP(img image.Image) []byte {
	b := img.Bounds()
	wd, ht := b.Dx(), b.Dy()
	w := &bitWriter{}
	w.write(0x2f, 8)
	w.write(uint64(wd-1), 14)
	w.write(uint64(ht-1), 14)
	w.write(0, 1)             // alpha unused
	w.write(0, 3)             // version 0
	w.write(0, 1)             // no transform
	w.write(0, 1)             // no color cache
	w.write(0, 1)             // no meta prefix codes
	w.writeFlatCode(256 + 24) // green and lengths
	w.writeFlatCode(256)      // red
	w.writeFlatCode(256)      // blue
	w.writeFlatCode(256)      // alpha
	w.write(1, 1)             // distance: simple code,
	w.write(0, 1)             // one symbol,
	w.write(0, 1)             // one bit wide,
	w.write(0, 1)             // symbol 0
	sym := func(v uint8) { w.write(uint64(bits.Reverse8(v)), 8) }
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			sym(c.G)
			sym(c.R)
			sym(c.B)
			sym(255)
		}
	}
	data := w.bytes()
	var out bytes.Buffer
	out.WriteString("RIFF")
	pad := len(data) % 2
	binary.Write(&out, binary.LittleEndian, uint32(4+8+len(data)+pad))
	out.WriteString("WEBPVP8L")
	binary.Write(&out, binary.LittleEndian, uint32(len(data)))
	out.Write(data)
	if pad == 1 {
		out.WriteByte(0)
	}
	return out.Bytes()
}

// makeBadge draws a small sticker (a circle, a band and a number) as WebP.
func makeBadge(r *rand.Rand) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 200, 150))
	for y := 0; y < 150; y++ {
		for x := 0; x < 200; x++ {
			img.Set(x, y, color.RGBA{uint8(230 - y/3), uint8(240 - x/4), 250, 255})
		}
	}
	fillCircle(img, 60, 70, 40+r.IntN(8), color.RGBA{142, 68, 173, 255})
	fillRect(img, 110, 30, 70, 25, color.RGBA{230, 126, 34, 255})
	fillTriangle(img, 150, 80, 110, 190, 135, color.RGBA{39, 174, 96, 255})
	drawText(img, 112, 36, 2, "NO 7", color.RGBA{255, 255, 255, 255})
	return encodeWebP(img), nil
}
