package template

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/gif"
	_ "image/jpeg" // image.DecodeConfig reads these formats
	_ "image/png"
	"math"
	"os"

	"synth/generators"
)

// imageSize is image file i's width and height.
func (c *bctx) imageSize(i int) (w, h int) {
	s := must(c, i, imageSizeFile)
	return s.w, s.h
}

type size struct{ w, h int }

// readImageSize reads an image file's width and height from its header.
func readImageSize(in generators.Input) (size, error) {
	if in.File.Type == "webp" {
		return webpSize(in.Path, in.File.Name)
	}
	f, err := os.Open(in.Path)
	if err != nil {
		return size{}, fmt.Errorf("image %s: %w", in.File.Name, err)
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil {
		return size{}, fmt.Errorf("image %s: %v", in.File.Name, err)
	}
	return size{cfg.Width, cfg.Height}, nil
}

// wavInfo is what a WAV header says.
type wavInfo struct {
	rate, channels, bits int
	seconds              float64
}

// wav is WAV file i's header.
func (c *bctx) wav(i int) wavInfo { return must(c, i, wavFile) }

// readWAV reads a WAV file's header.
func readWAV(in generators.Input) (wavInfo, error) {
	b, err := os.ReadFile(in.Path)
	if err != nil {
		return wavInfo{}, fmt.Errorf("wav %s: %w", in.File.Name, err)
	}
	if len(b) < 44 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return wavInfo{}, fmt.Errorf("wav %s: not a WAV file", in.File.Name)
	}
	var w wavInfo
	for p := 12; p+8 <= len(b); {
		id, n := string(b[p:p+4]), int(binary.LittleEndian.Uint32(b[p+4:p+8]))
		body := b[p+8:]
		switch id {
		case "fmt ":
			if len(body) < 16 {
				return wavInfo{}, fmt.Errorf("wav %s: fmt chunk of %d bytes", in.File.Name, len(body))
			}
			w.channels = int(binary.LittleEndian.Uint16(body[2:4]))
			w.rate = int(binary.LittleEndian.Uint32(body[4:8]))
			w.bits = int(binary.LittleEndian.Uint16(body[14:16]))
		case "data":
			if n > len(body) {
				n = len(body)
			}
			if w.rate > 0 && w.channels > 0 && w.bits > 0 {
				w.seconds = float64(n) / float64(w.rate*w.channels*w.bits/8)
			}
			return w, nil
		}
		p += 8 + n + n%2
	}
	return wavInfo{}, fmt.Errorf("wav %s: no data chunk", in.File.Name)
}

// gifFrames is the number of frames of GIF file i.
func (c *bctx) gifFrames(i int) int { return must(c, i, gifFile) }

// readGIFFrames decodes a GIF file and counts its frames.
func readGIFFrames(in generators.Input) (int, error) {
	f, err := os.Open(in.Path)
	if err != nil {
		return 0, fmt.Errorf("gif %s: %w", in.File.Name, err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		return 0, fmt.Errorf("gif %s: %v", in.File.Name, err)
	}
	return len(g.Image), nil
}

// webpSize reads a WebP file's canvas size from its VP8L, VP8 or VP8X
// header; name is the file's name for errors.
func webpSize(path, name string) (size, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return size{}, fmt.Errorf("image %s: %w", name, err)
	}
	if len(b) < 30 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return size{}, fmt.Errorf("image %s: not a WebP file", name)
	}
	d := b[20:]
	switch string(b[12:16]) {
	case "VP8L":
		v := binary.LittleEndian.Uint32(d[1:5])
		return size{int(v&0x3fff) + 1, int(v>>14&0x3fff) + 1}, nil
	case "VP8 ":
		return size{int(binary.LittleEndian.Uint16(d[6:8]) & 0x3fff), int(binary.LittleEndian.Uint16(d[8:10]) & 0x3fff)}, nil
	case "VP8X":
		w := int(d[4]) | int(d[5])<<8 | int(d[6])<<16
		h := int(d[7]) | int(d[8])<<8 | int(d[9])<<16
		return size{w + 1, h + 1}, nil
	}
	return size{}, fmt.Errorf("image %s: unknown WebP chunk %q", name, b[12:16])
}

// mp3Seconds is the duration of MP3 file i.
func (c *bctx) mp3Seconds(i int) float64 { return must(c, i, mp3File) }

// readMP3 reads an MP3 file and returns the duration its frames hold.
func readMP3(in generators.Input) (float64, error) {
	b, err := os.ReadFile(in.Path)
	if err != nil {
		return 0, fmt.Errorf("mp3 %s: %w", in.File.Name, err)
	}
	secs, err := mp3Seconds(b)
	if err != nil {
		return 0, fmt.Errorf("mp3 %s: %w", in.File.Name, err)
	}
	return secs, nil
}

// mp3Seconds walks the MPEG-1 Layer III frames of an MP3 file and returns
// the duration they hold.
func mp3Seconds(b []byte) (float64, error) {
	if len(b) > 10 && string(b[:3]) == "ID3" {
		n := int(b[6]&0x7f)<<21 | int(b[7]&0x7f)<<14 | int(b[8]&0x7f)<<7 | int(b[9]&0x7f)
		b = b[min(len(b), 10+n):]
	}
	rates := []int{44100, 48000, 32000}
	kbps := []int{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320}
	frames, rate := 0, 0
	// An encoder's Xing/Info frame holds no audio, and its LAME tag says
	// how many samples of delay and padding the encoder added. pydub's
	// ffmpeg reports what it keeps, and this follows it: it drops the Info
	// frame, skips the delay and its decoder's 529 samples at the start,
	// and ends the stream at the Xing frame count's samples plus 529 less
	// the padding, when that is before the end.
	info, lame := false, false
	delay, pad, xingFrames := 0, 0, -1
	if len(b) >= 4 && b[0] == 0xFF && b[1]&0xFE == 0xFA {
		side := 32
		if b[3]>>6 == 3 { // mono
			side = 17
		}
		if t := 4 + side; t+8 <= len(b) && (string(b[t:t+4]) == "Xing" || string(b[t:t+4]) == "Info") {
			info = true
			flags := b[t+7]
			l := t + 8 // the LAME tag follows the fields the flags announce
			if flags&1 != 0 && l+4 <= len(b) {
				xingFrames = int(b[l])<<24 | int(b[l+1])<<16 | int(b[l+2])<<8 | int(b[l+3])
			}
			for _, f := range []struct {
				bit  byte
				size int
			}{{1, 4}, {2, 4}, {4, 100}, {8, 4}} {
				if flags&f.bit != 0 {
					l += f.size
				}
			}
			if l+24 <= len(b) {
				lame = true
				delay = int(b[l+21])<<4 | int(b[l+22])>>4
				pad = int(b[l+22]&0x0F)<<8 | int(b[l+23])
			}
		}
	}
	for p := 0; p+4 <= len(b); {
		h := b[p : p+4]
		if h[0] != 0xFF || h[1]&0xFE != 0xFA { // MPEG-1 Layer III only
			break
		}
		bi, si := int(h[2]>>4), int(h[2]>>2&3)
		if bi == 0 || bi >= len(kbps) || si >= len(rates) {
			break
		}
		rate = rates[si]
		size := 144*kbps[bi]*1000/rate + int(h[2]>>1&1)
		frames++
		p += size
	}
	if info {
		frames-- // the Info frame
	}
	if frames <= 0 {
		return 0, errors.New("no MPEG-1 Layer III frames")
	}
	samples := frames * 1152
	if lame {
		const decoderDelay = 529
		end := samples
		if xingFrames >= 0 {
			end = min(end, xingFrames*1152+decoderDelay-pad)
		}
		samples = end - delay - decoderDelay
	}
	return float64(max(0, samples)) / float64(rate), nil
}

// audioSeconds is file i's duration, for WAV and MP3.
func (c *bctx) audioSeconds(i int) float64 {
	if c.typ(i) == "mp3" {
		return c.mp3Seconds(i)
	}
	return c.wav(i).seconds
}

// decodeImage decodes file i, or returns nil for a format Go cannot decode.
func (c *bctx) decodeImage(i int) image.Image {
	f, err := os.Open(c.files[i].Path)
	if err != nil {
		return nil
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil
	}
	return img
}

// bilevel reports whether image i, as a viewer shows it (transparency
// over white), is black and white only: no edit of its contrast,
// brightness or sharpness can change it. Sampled on a grid.
func (c *bctx) bilevel(i int) bool {
	img := c.decodeImage(i)
	if img == nil {
		return false
	}
	b := img.Bounds()
	step := max(1, min(b.Dx(), b.Dy())/64)
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			r, g, bl, a := img.At(x, y).RGBA() // premultiplied by a
			white := float64(0xffff - a)
			v := (0.299*(float64(r)+white) + 0.587*(float64(g)+white) + 0.114*(float64(bl)+white)) / 257
			if v > 8 && v < 247 {
				return false
			}
		}
	}
	return true
}

// boxVariance is the variance of the gray level inside a box, sampled.
func boxVariance(img image.Image, x, y, w, h int) float64 {
	var s, s2, n float64
	step := max(1, min(w, h)/40)
	for j := y; j < y+h; j += step {
		for i := x; i < x+w; i += step {
			r, g, b, _ := img.At(img.Bounds().Min.X+i, img.Bounds().Min.Y+j).RGBA()
			v := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 257
			s, s2, n = s+v, s2+v*v, n+1
		}
	}
	if n == 0 {
		return 0
	}
	m := s / n
	return s2/n - m*m
}

// maxMirrorCorrelation is the largest correlation between an image and its
// mirror for which a flip task is written: the check compares the output
// with the flipped input at a similarity of 0.95, and a copy of the input
// must stay well under that.
const maxMirrorCorrelation = 0.9

// mirrorCorrelation is the Pearson correlation of img's gray levels with
// those of its left-right (horiz) or upside-down mirror, sampled on a grid
// of at most 64x64 points. A flat image counts as its own mirror (1).
func mirrorCorrelation(img image.Image, horiz bool) float64 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	gray := func(x, y int) float64 {
		r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
		return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257
	}
	n := 64
	var sx, sy, sxx, syy, sxy, k float64
	for j := range n {
		for i := range n {
			x, y := i*w/n, j*h/n
			mx, my := x, y
			if horiz {
				mx = w - 1 - x
			} else {
				my = h - 1 - y
			}
			a, m := gray(x, y), gray(mx, my)
			sx, sy, sxx, syy, sxy, k = sx+a, sy+m, sxx+a*a, syy+m*m, sxy+a*m, k+1
		}
	}
	va, vm := sxx/k-(sx/k)*(sx/k), syy/k-(sy/k)*(sy/k)
	if va < 1e-6 || vm < 1e-6 {
		return 1
	}
	return (sxy/k - (sx/k)*(sy/k)) / math.Sqrt(va*vm)
}
