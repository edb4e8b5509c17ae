package sources

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	_ "image/jpeg" // registers the decoders DecodeConfig uses
	_ "image/png"
	"io"
	"os"

	"synth/schemas"
)

// previewImage reads a png, jpeg or gif's size and mode (PIL's names: L, LA,
// RGB, RGBA, P, CMYK, I;16) and a gif's frame count.
func previewImage(path string) (*schemas.Preview, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cfg, format, err := image.DecodeConfig(f)
	if err != nil {
		return nil, err
	}
	p := &schemas.Preview{Width: cfg.Width, Height: cfg.Height, Mode: colorMode(cfg.ColorModel)}
	switch format {
	case "png":
		if m, err := pngMode(path); err == nil {
			p.Mode = m
		}
	case "gif":
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		g, err := gif.DecodeAll(f)
		if err != nil {
			return nil, fmt.Errorf("gif frames: %w", err)
		}
		p.Frames = len(g.Image)
		p.Mode = "P"
	}
	if p.Width <= 0 || p.Height <= 0 {
		return nil, errors.New("image has no pixels")
	}
	return p, nil
}

// pngMode reads the mode from a PNG's IHDR colour type, which is more exact
// than the Go colour model (that has no RGB without alpha).
func pngMode(path string) (string, error) {
	b, err := readHead(path, 33)
	if err != nil || len(b) < 33 {
		return "", errors.New("short png")
	}
	depth := b[24]
	switch b[25] {
	case 0:
		if depth == 16 {
			return "I;16", nil
		}
		if depth == 1 {
			return "1", nil
		}
		return "L", nil
	case 2:
		return "RGB", nil
	case 3:
		return "P", nil
	case 4:
		return "LA", nil
	case 6:
		return "RGBA", nil
	}
	return "", errors.New("bad colour type")
}

func colorMode(m color.Model) string {
	switch m {
	case color.GrayModel:
		return "L"
	case color.Gray16Model:
		return "I;16"
	case color.RGBAModel, color.RGBA64Model, color.YCbCrModel:
		return "RGB"
	case color.NRGBAModel, color.NRGBA64Model:
		return "RGBA"
	case color.CMYKModel:
		return "CMYK"
	}
	if _, ok := m.(color.Palette); ok {
		return "P"
	}
	return ""
}

// previewWebP reads a WebP's size from its VP8, VP8L or VP8X chunk.
func previewWebP(path string) (*schemas.Preview, error) {
	b, err := readHead(path, 64)
	if err != nil {
		return nil, err
	}
	if len(b) < 30 {
		return nil, errors.New("short webp")
	}
	p := &schemas.Preview{Mode: "RGB"}
	switch string(b[12:16]) {
	case "VP8 ":
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return nil, errors.New("bad VP8 frame tag")
		}
		p.Width = int(binary.LittleEndian.Uint16(b[26:]) & 0x3fff)
		p.Height = int(binary.LittleEndian.Uint16(b[28:]) & 0x3fff)
	case "VP8L":
		if b[20] != 0x2f {
			return nil, errors.New("bad VP8L signature")
		}
		v := binary.LittleEndian.Uint32(b[21:])
		p.Width = int(v&0x3fff) + 1
		p.Height = int((v>>14)&0x3fff) + 1
		if v>>28&1 == 1 {
			p.Mode = "RGBA"
		}
	case "VP8X":
		if b[20]&0x10 != 0 {
			p.Mode = "RGBA"
		}
		p.Width = int(uint32(b[24])|uint32(b[25])<<8|uint32(b[26])<<16) + 1
		p.Height = int(uint32(b[27])|uint32(b[28])<<8|uint32(b[29])<<16) + 1
	default:
		return nil, fmt.Errorf("unknown webp chunk %q", b[12:16])
	}
	return p, nil
}

// previewBMP reads a BMP's size and bit depth from its info header.
func previewBMP(path string) (*schemas.Preview, error) {
	b, err := readHead(path, 30)
	if err != nil || len(b) < 30 {
		return nil, errors.New("short bmp")
	}
	w := int(int32(binary.LittleEndian.Uint32(b[18:])))
	h := int(int32(binary.LittleEndian.Uint32(b[22:])))
	if h < 0 {
		h = -h
	}
	mode := "RGB"
	switch binary.LittleEndian.Uint16(b[28:]) {
	case 32:
		mode = "RGBA"
	case 1, 4, 8:
		mode = "P"
	}
	return &schemas.Preview{Width: w, Height: h, Mode: mode}, nil
}
