package sample

import (
	"image"
	"image/color"
	"strings"
)

// glyphs is a 5x7 bitmap font for upper-case letters, digits and a few
// marks: seven rows of five bits, the high bit on the left.
var glyphs = map[rune][7]uint8{
	'A': {14, 17, 17, 31, 17, 17, 17}, 'B': {30, 17, 17, 30, 17, 17, 30}, 'C': {14, 17, 16, 16, 16, 17, 14},
	'D': {30, 17, 17, 17, 17, 17, 30}, 'E': {31, 16, 16, 30, 16, 16, 31}, 'F': {31, 16, 16, 30, 16, 16, 16},
	'G': {14, 17, 16, 23, 17, 17, 15}, 'H': {17, 17, 17, 31, 17, 17, 17}, 'I': {14, 4, 4, 4, 4, 4, 14},
	'J': {7, 2, 2, 2, 2, 18, 12}, 'K': {17, 18, 20, 24, 20, 18, 17}, 'L': {16, 16, 16, 16, 16, 16, 31},
	'M': {17, 27, 21, 21, 17, 17, 17}, 'N': {17, 17, 25, 21, 19, 17, 17}, 'O': {14, 17, 17, 17, 17, 17, 14},
	'P': {30, 17, 17, 30, 16, 16, 16}, 'Q': {14, 17, 17, 17, 21, 18, 13}, 'R': {30, 17, 17, 30, 20, 18, 17},
	'S': {15, 16, 16, 14, 1, 1, 30}, 'T': {31, 4, 4, 4, 4, 4, 4}, 'U': {17, 17, 17, 17, 17, 17, 14},
	'V': {17, 17, 17, 17, 17, 10, 4}, 'W': {17, 17, 17, 21, 21, 21, 10}, 'X': {17, 17, 10, 4, 10, 17, 17},
	'Y': {17, 17, 10, 4, 4, 4, 4}, 'Z': {31, 1, 2, 4, 8, 16, 31},
	'0': {14, 17, 19, 21, 25, 17, 14}, '1': {4, 12, 4, 4, 4, 4, 14}, '2': {14, 17, 1, 2, 4, 8, 31},
	'3': {30, 1, 1, 14, 1, 1, 30}, '4': {2, 6, 10, 18, 31, 2, 2}, '5': {31, 16, 30, 1, 1, 17, 14},
	'6': {6, 8, 16, 30, 17, 17, 14}, '7': {31, 1, 2, 4, 8, 8, 8}, '8': {14, 17, 17, 14, 17, 17, 14},
	'9': {14, 17, 17, 15, 1, 2, 12}, '-': {0, 0, 0, 31, 0, 0, 0}, '.': {0, 0, 0, 0, 0, 12, 12}, ':': {0, 12, 12, 0, 12, 12, 0},
}

// drawText writes s at (x, y) in the bitmap font, each dot scale pixels.
func drawText(img *image.RGBA, x, y, scale int, s string, c color.Color) {
	for _, r := range strings.ToUpper(s) {
		g, ok := glyphs[r]
		if ok {
			for row := 0; row < 7; row++ {
				for col := 0; col < 5; col++ {
					if g[row]&(1<<(4-col)) != 0 {
						fillRect(img, x+col*scale, y+row*scale, scale, scale, c)
					}
				}
			}
		}
		x += 6 * scale
	}
}

func fillRect(img *image.RGBA, x, y, w, h int, c color.Color) {
	for j := y; j < y+h; j++ {
		for i := x; i < x+w; i++ {
			if (image.Point{i, j}).In(img.Rect) {
				img.Set(i, j, c)
			}
		}
	}
}

func fillCircle(img *image.RGBA, cx, cy, r int, c color.Color) {
	for j := cy - r; j <= cy+r; j++ {
		for i := cx - r; i <= cx+r; i++ {
			if (i-cx)*(i-cx)+(j-cy)*(j-cy) <= r*r && (image.Point{i, j}).In(img.Rect) {
				img.Set(i, j, c)
			}
		}
	}
}

// fillTriangle fills the triangle with a flat base at y1 and apex (ax, ay).
func fillTriangle(img *image.RGBA, ax, ay, x0, x1, y1 int, c color.Color) {
	for j := ay; j <= y1; j++ {
		f := float64(j-ay) / float64(max(1, y1-ay))
		l := ax + int(f*float64(x0-ax))
		r := ax + int(f*float64(x1-ax))
		for i := l; i <= r; i++ {
			if (image.Point{i, j}).In(img.Rect) {
				img.Set(i, j, c)
			}
		}
	}
}
