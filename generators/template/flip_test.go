package template

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/generators"
	"synth/schemas"
)

// symmetricPNG writes a w×h image whose gray level depends on x (and y)
// through f, so its symmetries are f's.
func symmetricPNG(t *testing.T, name string, w, h int, f func(x, y int) uint8) generators.Input {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetGray(x, y, color.Gray{Y: f(x, y)})
		}
	}
	p := filepath.Join(t.TempDir(), name)
	fh, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(fh, img); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	return generators.Input{File: schemas.File{ID: name, Name: name, Type: "png"}, Path: p}
}

func TestFlipNeverAsksForTheInputAgain(t *testing.T) {
	w, h := 80, 60
	lr := func(x, y int) uint8 { return uint8(40 + 3*min(x, w-1-x) + 2*y) }               // its own left-right mirror
	both := func(x, y int) uint8 { return uint8(40 + 3*min(x, w-1-x) + 3*min(y, h-1-y)) } // its own mirror both ways
	skew := func(x, y int) uint8 { return uint8(20 + 2*x + y) }                           // neither
	for seed := range int64(8) {
		flip := func(in generators.Input) []spec {
			specs, err := buildFlip(&bctx{seed: seed, files: []generators.Input{in}, rng: rngFor(seed, "flip"), cache: newParsed()})
			if err != nil {
				t.Fatalf("seed %d: %s: %v", seed, in.File.Name, err)
			}
			return specs
		}
		in := symmetricPNG(t, "lr.png", w, h, lr)
		specs := flip(in)
		if len(specs) != 1 || !strings.Contains(specs[0].params, "flip_v") {
			t.Fatalf("seed %d: a left-right symmetric image got %+v, want the upside-down flip", seed, specs)
		}
		in = symmetricPNG(t, "both.png", w, h, both)
		if specs := flip(in); len(specs) != 0 {
			t.Fatalf("seed %d: an image symmetric both ways got a flip task %q", seed, specs[0].params)
		}
		in = symmetricPNG(t, "skew.png", w, h, skew)
		if specs := flip(in); len(specs) != 1 {
			t.Fatalf("seed %d: an asymmetric image got no flip task", seed)
		}
	}
}
