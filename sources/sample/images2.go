package sample

import (
	"bytes"
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
)

func newCanvas(w, h int, bg color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, &image.Uniform{bg}, image.Point{}, draw.Src)
	return img
}

func encodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	err := png.Encode(&b, img)
	return b.Bytes(), err
}

func encodeJPEG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85})
	return b.Bytes(), err
}

// makeChartScan is a screenshot of a bar chart: axes, bars and a title.
func makeChartScan(r *rand.Rand) ([]byte, error) {
	img := newCanvas(360, 240, color.RGBA{255, 255, 255, 255})
	fillRect(img, 40, 20, 2, 190, color.RGBA{40, 40, 40, 255})
	fillRect(img, 40, 208, 300, 2, color.RGBA{40, 40, 40, 255})
	for i := 0; i < 6; i++ {
		h := 30 + r.IntN(150)
		fillRect(img, 55+i*47, 208-h, 30, h, color.RGBA{52, 101, 164, 255})
	}
	drawText(img, 120, 6, 2, "SALES 2024", color.RGBA{20, 20, 20, 255})
	return encodePNG(img)
}

// makeNightCity is a photo-like skyline at night with lit windows.
func makeNightCity(r *rand.Rand) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 420, 280))
	for y := 0; y < 280; y++ {
		for x := 0; x < 420; x++ {
			t := float64(y) / 280
			img.Set(x, y, color.RGBA{uint8(10 + 30*t), uint8(15 + 25*t), uint8(50 + 60*t), 255})
		}
	}
	for x := 0; x < 420; {
		w := 30 + r.IntN(40)
		h := 80 + r.IntN(150)
		fillRect(img, x, 280-h, w-4, h, color.RGBA{25, 25, 35, 255})
		for wy := 280 - h + 8; wy < 270; wy += 14 {
			for wx := x + 5; wx < x+w-10; wx += 10 {
				if r.IntN(3) == 0 {
					fillRect(img, wx, wy, 5, 7, color.RGBA{250, 220, 120, 255})
				}
			}
		}
		x += w
	}
	fillCircle(img, 360, 45, 18, color.RGBA{240, 240, 220, 255})
	return encodeJPEG(img)
}

// makeLogo is a flat company logo: a coloured mark and a word.
func makeLogo(r *rand.Rand) ([]byte, error) {
	img := newCanvas(240, 120, color.RGBA{255, 255, 255, 255})
	c := pick(r, []color.RGBA{{231, 76, 60, 255}, {41, 128, 185, 255}, {39, 174, 96, 255}})
	fillCircle(img, 50, 60, 34, c)
	fillCircle(img, 50, 60, 18, color.RGBA{255, 255, 255, 255})
	drawText(img, 100, 48, 3, "NOVA", color.RGBA{44, 62, 80, 255})
	fillRect(img, 100, 76, 84, 4, c)
	return encodePNG(img)
}

// makeReceipt is a scanned shop receipt: grey paper with lines of text.
func makeReceipt(r *rand.Rand) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 200, 300))
	for y := 0; y < 300; y++ {
		for x := 0; x < 200; x++ {
			n := uint8(r.IntN(12))
			img.Set(x, y, color.RGBA{236 + n/2, 234 + n/2, 228 + n/2, 255})
		}
	}
	lines := []string{"CORNER SHOP", "", "MILK      1.29", "BREAD     2.49", "APPLES    3.10", "COFFEE    7.99", "", "TOTAL    14.87"}
	for i, l := range lines {
		drawText(img, 14, 16+i*22, 2, l, color.RGBA{30, 30, 30, 255})
	}
	return encodePNG(img)
}

// makeTexture is a close-up of a wooden surface: noisy stripes.
func makeTexture(r *rand.Rand) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 256, 256))
	phase := r.Float64() * 6
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			v := math.Sin(float64(x)/9+math.Sin(float64(y)/23+phase)*2)*0.5 + 0.5
			n := r.Float64() * 18
			img.Set(x, y, color.RGBA{uint8(120 + 60*v + n), uint8(80 + 40*v + n), uint8(40 + 20*v), 255})
		}
	}
	return encodeJPEG(img)
}

// makePixelArt is a small sprite scaled up with hard pixel edges.
func makePixelArt(r *rand.Rand) ([]byte, error) {
	sprite := []string{
		"..RRRR..", ".RRRRRR.", "RRWRRWRR", "RRRRRRRR", "RRRRRRRR", "R.RR.RR.", "........", "GGGGGGGG",
	}
	cols := map[byte]color.RGBA{'R': {200, 30, 60, 255}, 'W': {255, 255, 255, 255}, 'G': {40, 160, 60, 255}}
	s := 12 + r.IntN(4)
	img := newCanvas(8*s, 8*s, color.RGBA{30, 30, 60, 255})
	for y, row := range sprite {
		for x := 0; x < len(row); x++ {
			if c, ok := cols[row[x]]; ok {
				fillRect(img, x*s, y*s, s, s, c)
			}
		}
	}
	return encodePNG(img)
}

// makePortrait is a painted head-and-shoulders portrait.
func makePortrait(r *rand.Rand) ([]byte, error) {
	img := newCanvas(240, 300, color.RGBA{190, 205, 220, 255})
	skin := color.RGBA{uint8(200 + r.IntN(40)), uint8(160 + r.IntN(30)), 130, 255}
	fillCircle(img, 120, 290, 90, color.RGBA{60, 80, 120, 255})
	fillCircle(img, 120, 130, 60, skin)
	fillCircle(img, 100, 120, 7, color.RGBA{40, 30, 30, 255})
	fillCircle(img, 140, 120, 7, color.RGBA{40, 30, 30, 255})
	fillRect(img, 105, 160, 30, 5, color.RGBA{160, 70, 70, 255})
	fillRect(img, 62, 70, 116, 25, color.RGBA{70, 45, 30, 255})
	fillRect(img, 62, 95, 22, 45, color.RGBA{70, 45, 30, 255})  // hair on one side only
	fillCircle(img, 182, 150, 5, color.RGBA{240, 200, 40, 255}) // an earring
	drawText(img, 8, 8, 2, "NO 12", color.RGBA{40, 40, 60, 255})
	return encodeJPEG(img)
}

// animation encodes frames drawn by draw(frame, n) on a background as a
// looping GIF.
func animation(w, h, n, delay int, bg color.RGBA, drawFrame func(img *image.RGBA, f int)) ([]byte, error) {
	g := &gif.GIF{}
	for f := 0; f < n; f++ {
		img := newCanvas(w, h, bg)
		drawFrame(img, f)
		p := image.NewPaletted(img.Rect, palette.Plan9)
		draw.Draw(p, p.Rect, img, image.Point{}, draw.Src)
		g.Image = append(g.Image, p)
		g.Delay = append(g.Delay, delay)
	}
	var b bytes.Buffer
	err := gif.EncodeAll(&b, g)
	return b.Bytes(), err
}

// makeSpinner is a loading spinner: a dot circling a ring of dots over a
// label, large enough that blurring keeps its shapes.
func makeSpinner(r *rand.Rand) ([]byte, error) {
	n := 8 + r.IntN(5)
	return animation(160, 160, n, 8, color.RGBA{60, 66, 80, 255}, func(img *image.RGBA, f int) {
		fillRect(img, 0, 130, 160, 30, color.RGBA{230, 126, 34, 255})
		drawText(img, 8, 138, 2, "LOADING", color.RGBA{255, 255, 255, 255})
		for k := 0; k < 8; k++ {
			a := float64(k) / 8 * 2 * math.Pi
			fillCircle(img, 80+int(45*math.Cos(a)), 65+int(45*math.Sin(a)), 10, color.RGBA{200, 200, 200, 255})
		}
		a := 0.7 + float64(f)/float64(n)*2*math.Pi // off the axes, so no frame is symmetric
		fillCircle(img, 80+int(45*math.Cos(a)), 65+int(45*math.Sin(a)), 16, color.RGBA{52, 152, 219, 255})
	})
}

// makeTrafficLight cycles red, amber and green.
func makeTrafficLight(r *rand.Rand) ([]byte, error) {
	on := []color.RGBA{{230, 40, 40, 255}, {240, 180, 30, 255}, {40, 200, 80, 255}}
	n := 3 * (2 + r.IntN(2))
	return animation(80, 200, n, 40, color.RGBA{150, 185, 215, 255}, func(img *image.RGBA, f int) {
		fillRect(img, 15, 10, 50, 180, color.RGBA{40, 40, 40, 255})
		fillRect(img, 66, 120, 8, 80, color.RGBA{120, 120, 120, 255}) // the pole, to one side
		drawText(img, 2, 2, 1, "A7", color.RGBA{20, 20, 20, 255})
		for k := 0; k < 3; k++ {
			c := color.RGBA{80, 80, 80, 255}
			if f%3 == k {
				c = on[k]
			}
			fillCircle(img, 40, 40+k*60, 20, c)
		}
	})
}

// makeIcon is an app icon as lossless WebP.
func makeIcon(r *rand.Rand) ([]byte, error) {
	img := newCanvas(128, 128, color.RGBA{84, 140, 118, 255})
	fillRect(img, 24, 34, 80, 60, color.RGBA{196, 186, 164, 255})
	fillTriangle(img, 64, 20+r.IntN(10), 24, 104, 40, color.RGBA{160, 92, 80, 255})
	fillRect(img, 40, 60, 16, 34, color.RGBA{110, 80, 60, 255})
	drawText(img, 40, 100, 2, "HOME", color.RGBA{226, 226, 210, 255})
	return encodeWebP(img), nil
}

// makeDoorbell is a two-tone ding-dong, about 2.5 seconds.
func makeDoorbell(r *rand.Rand) ([]byte, error) {
	var out []float64
	for _, f := range []float64{659.25 + r.Float64(), 523.25} {
		n := audioRate * 5 / 4
		for k := 0; k < n; k++ {
			t := float64(k) / audioRate
			out = append(out, 0.5*math.Exp(-t*2)*math.Sin(2*math.Pi*f*t))
		}
	}
	return WAV(out, audioRate), nil
}

// makeBeeps is an alarm: short beeps with gaps, about 3 seconds.
func makeBeeps(r *rand.Rand) ([]byte, error) {
	var out []float64
	f := 880 + float64(r.IntN(200))
	for i := 0; i < 6; i++ {
		for k := 0; k < audioRate/4; k++ {
			out = append(out, 0.4*math.Sin(2*math.Pi*f*float64(k)/audioRate))
		}
		out = append(out, make([]float64, audioRate/4)...)
	}
	return WAV(out, audioRate), nil
}

// makeSweep is a sine sweep from 200 Hz to 2 kHz over 4 seconds.
func makeSweep(r *rand.Rand) ([]byte, error) {
	n := 4 * audioRate
	out := make([]float64, n)
	ph := r.Float64()
	for k := range out {
		f := 200 + 1800*float64(k)/float64(n)
		ph += 2 * math.Pi * f / audioRate
		out[k] = 0.3 * math.Sin(ph)
	}
	return WAV(out, audioRate), nil
}

var mediaFiles = []maker{
	{"chart_screenshot.png", "png", makeChartScan},
	{"city_night.jpeg", "jpeg", makeNightCity},
	{"logo.png", "png", makeLogo},
	{"receipt_scan.png", "png", makeReceipt},
	{"wood_texture.jpeg", "jpeg", makeTexture},
	{"pixel_sprite.png", "png", makePixelArt},
	{"portrait.jpeg", "jpeg", makePortrait},
	{"spinner.gif", "gif", makeSpinner},
	{"traffic_light.gif", "gif", makeTrafficLight},
	{"app_icon.webp", "webp", makeIcon},
	{"doorbell.wav", "wav", makeDoorbell},
	{"alarm_beeps.wav", "wav", makeBeeps},
	{"sine_sweep.wav", "wav", makeSweep},
}
