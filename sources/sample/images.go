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

// makeShapes draws a poster: a light background, coloured shapes placed by
// the random stream, and a caption, so that rotations, flips and crops all
// change the picture.
func makeShapes(r *rand.Rand) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 320, 240))
	draw.Draw(img, img.Rect, &image.Uniform{color.RGBA{245, 243, 235, 255}}, image.Point{}, draw.Src)
	fillRect(img, 20+r.IntN(20), 30+r.IntN(20), 110, 70, color.RGBA{214, 48, 49, 255})
	fillCircle(img, 230+r.IntN(20), 80+r.IntN(20), 45, color.RGBA{9, 132, 227, 255})
	fillTriangle(img, 110+r.IntN(30), 120, 40, 200, 200, color.RGBA{0, 148, 50, 255})
	fillRect(img, 250, 170, 50, 50, color.RGBA{253, 203, 110, 255})
	drawText(img, 16, 212, 2, "SHAPES 42", color.RGBA{30, 30, 30, 255})
	var b bytes.Buffer
	err := png.Encode(&b, img)
	return b.Bytes(), err
}

// makeLandscape paints a photo-like scene: a sky gradient, a sun,
// mountains, grass with noise, encoded as JPEG.
func makeLandscape(r *rand.Rand) ([]byte, error) {
	w, h := 400, 300
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			t := float64(y) / float64(h)
			c := color.RGBA{uint8(90 + 120*t), uint8(150 + 70*t), 235, 255}
			if y > 200 {
				n := uint8(r.IntN(30))
				c = color.RGBA{40 + n, 140 + n, 50, 255}
			}
			img.Set(x, y, c)
		}
	}
	fillCircle(img, 310, 60, 30, color.RGBA{255, 220, 90, 255})
	fillTriangle(img, 120, 70, 0, 260, 200, color.RGBA{110, 100, 120, 255})
	fillTriangle(img, 250, 110, 150, 360, 200, color.RGBA{130, 120, 135, 255})
	fillTriangle(img, 120, 70, 100, 140, 95, color.RGBA{250, 250, 250, 255})
	var b bytes.Buffer
	err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 88})
	return b.Bytes(), err
}

// makeBounce is an animated GIF of a ball moving across a frame.
func makeBounce(r *rand.Rand) ([]byte, error) {
	g := &gif.GIF{}
	n := 8 + r.IntN(5)
	for f := 0; f < n; f++ {
		img := image.NewRGBA(image.Rect(0, 0, 160, 120))
		draw.Draw(img, img.Rect, &image.Uniform{color.RGBA{250, 250, 250, 255}}, image.Point{}, draw.Src)
		x := 20 + f*120/n
		y := 90 - int(60*math.Abs(math.Sin(float64(f)*math.Pi/float64(n)*2)))
		fillRect(img, 0, 110, 160, 10, color.RGBA{120, 80, 40, 255})
		fillCircle(img, x, y, 12, color.RGBA{220, 40, 40, 255})
		p := image.NewPaletted(img.Rect, palette.Plan9)
		draw.Draw(p, p.Rect, img, image.Point{}, draw.Src)
		g.Image = append(g.Image, p)
		g.Delay = append(g.Delay, 10)
	}
	var b bytes.Buffer
	err := gif.EncodeAll(&b, g)
	return b.Bytes(), err
}
