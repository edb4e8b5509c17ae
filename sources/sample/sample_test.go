package sample

import (
	"bytes"
	"context"
	"image"
	"image/color"
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"
	"io"
	"testing"

	"github.com/xuri/excelize/v2"

	"synth/sources"
)

func TestDeterministic(t *testing.T) {
	a, err := Files(7)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Files(7)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Files(8)
	if err != nil {
		t.Fatal(err)
	}
	differs := false
	for i := range a {
		if !bytes.Equal(a[i].Body, b[i].Body) {
			t.Errorf("%s: same seed gave different bytes", a[i].Name)
		}
		if !bytes.Equal(a[i].Body, c[i].Body) {
			differs = true
		}
	}
	if !differs {
		t.Error("seeds 7 and 8 gave identical corpora")
	}
}

func TestCollect(t *testing.T) {
	src := New(1)
	if src.Kind() != "sample" {
		t.Fatalf("kind %q", src.Kind())
	}
	seen := map[string]bool{}
	err := src.Collect(context.Background(), func(it sources.Item) error {
		body, err := io.ReadAll(it.Body)
		if err != nil {
			return err
		}
		if len(body) == 0 {
			t.Errorf("%s is empty", it.Name)
		}
		if it.Source.Kind != "sample" || it.Source.Ref != it.Name || it.Source.License != "CC0-1.0" {
			t.Errorf("%s: source %+v", it.Name, it.Source)
		}
		seen[it.Name] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sales.csv", "employees.xlsx", "article.txt", "weather.csv"} {
		if !seen[want] {
			t.Errorf("corpus lacks %s", want)
		}
	}
}

func TestXLSXOpens(t *testing.T) {
	files, err := Files(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Type != "xlsx" {
			continue
		}
		x, err := excelize.OpenReader(bytes.NewReader(f.Body))
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		rows, err := x.GetRows(x.GetSheetList()[0])
		if err != nil || len(rows) < 10 {
			t.Fatalf("%s: %d rows, %v", f.Name, len(rows), err)
		}
	}
}

// Image tasks check a flip or rotation against the original, so no image
// of the corpus may look the same mirrored.
func TestImagesAreAsymmetric(t *testing.T) {
	files, err := Files(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Type != "png" && f.Type != "jpeg" && f.Type != "gif" {
			continue
		}
		img, _, err := image.Decode(bytes.NewReader(f.Body))
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		b := img.Bounds()
		var dhAbs, dv float64
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				dhAbs += abs(gray(img.At(x, y)) - gray(img.At(b.Max.X-1-(x-b.Min.X), y)))
				dv += abs(gray(img.At(x, y)) - gray(img.At(x, b.Max.Y-1-(y-b.Min.Y))))
			}
		}
		n := float64(b.Dx() * b.Dy())
		if dhAbs/n < 2 || dv/n < 2 {
			t.Errorf("%s looks the same mirrored: mean difference %.2f left-right, %.2f top-bottom", f.Name, dhAbs/n, dv/n)
		}
	}
}

func gray(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return float64(r+g+b) / 3 / 257
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
