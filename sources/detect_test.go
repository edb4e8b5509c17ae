package sources

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestDetectFile(t *testing.T) {
	want := map[string]string{
		"alpha.png":     "png",
		"red.png":       "png",
		"anim.gif":      "gif",
		"archive.zip":   "zip",
		"data.json":     "json",
		"rows.jsonl":    "jsonl",
		"gbk.csv":       "csv",
		"utf16.csv":     "csv",
		"gray.jpg":      "jpeg",
		"photo.jpeg":    "jpeg",
		"green.webp":    "webp",
		"lossless.webp": "webp",
		"notes.md":      "md",
		"page.html":     "html",
		"paper.pdf":     "pdf",
		"parquet.bin":   "parquet",
		"plain.txt":     "txt",
		"report.docx":   "docx",
		"sales.xlsx":    "xlsx",
		"scores.csv":    "csv",
		"scores.tsv":    "tsv",
		"semicolon.csv": "csv",
		"tone.wav":      "wav",
	}
	for name, typ := range want {
		t.Run(name, func(t *testing.T) {
			got, err := DetectFile(filepath.Join("testdata", "files", name))
			if err != nil {
				t.Fatal(err)
			}
			if got != typ {
				t.Errorf("DetectFile(%s) = %q, want %q", name, got, typ)
			}
		})
	}
}

func TestDetectSingleColumn(t *testing.T) {
	if got := Detect([]byte("value\n1\n2\n3\n"), "data/values.csv"); got != "csv" {
		t.Errorf("one-column csv: %q", got)
	}
	if got := Detect([]byte("Hello there friend.\nHow are you?\n"), "notes.csv"); got != "txt" {
		t.Errorf("prose named csv: %q", got)
	}
}

func TestDetectIgnoresExtension(t *testing.T) {
	png, err := os.ReadFile(filepath.Join("testdata", "files", "red.png"))
	if err != nil {
		t.Fatal(err)
	}
	if got := Detect(png, "table.csv"); got != "png" {
		t.Errorf("png named table.csv: got %q", got)
	}
	csv := []byte("a,b\n1,2\n3,4\n")
	if got := Detect(csv, "picture.png"); got != "csv" {
		t.Errorf("csv named picture.png: got %q", got)
	}
}

func TestDetectHead(t *testing.T) {
	mp3 := mp3Frames(4)
	cases := []struct {
		name string
		head []byte
		want string
	}{
		{"empty", nil, TypeEmpty},
		{"binary zeros", make([]byte, 100), TypeUnknown},
		{"flac", append([]byte("fLaC"), make([]byte, 40)...), "flac"},
		{"mp3 frames", mp3, "mp3"},
		{"id3", append([]byte("ID3\x04\x00\x00\x00\x00\x00\x00"), mp3...), "mp3"},
		{"mp4", []byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2"), "mp4"},
		{"m4a", []byte("\x00\x00\x00\x18ftypM4A \x00\x00\x02\x00isomiso2"), "m4a"},
		{"arrow", []byte("ARROW1\x00\x00"), "arrow"},
		{"gzip", []byte("\x1f\x8b\x08\x00"), "gz"},
		{"prose with commas", []byte("Hello, world. This is prose, not a table, really.\nIt goes on, and on, with commas, here and there, and more.\n"), "txt"},
		{"json array", []byte(`[{"a":1},{"a":2}]`), "json"},
		{"json cut", append([]byte(`[{"a":1},`), bytes.Repeat([]byte(`{"a":1},`), HeadSize/8)...)[:HeadSize], "json"},
		{"broken json", []byte(`{"a": 1,, }`), "txt"},
		{"xml", []byte(`<?xml version="1.0"?><root/>`), "xml"},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), "svg"},
		{"tsv one column pair", []byte("x\ty\n1\t2\n"), "tsv"},
		{"python comment", []byte("# a script\nimport os\nprint(os.getcwd())\n"), "txt"},
		{"one column named txt", []byte("value\n1\n2\n"), "txt"},
		{"utf16 text", append([]byte{0xff, 0xfe}, []byte("h\x00i\x00\n\x00")...), "txt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Detect(tc.head, "x"); got != tc.want {
				t.Errorf("Detect = %q, want %q", got, tc.want)
			}
		})
	}
}

// mp3Frames builds n silent MPEG-1 layer III frames, 128 kbit/s, 44.1 kHz, stereo.
func mp3Frames(n int) []byte {
	frame := make([]byte, 417)
	copy(frame, []byte{0xff, 0xfb, 0x90, 0x00})
	return bytes.Repeat(frame, n)
}

func TestDetectOLE(t *testing.T) {
	dir := t.TempDir()
	u16 := func(s string) []byte {
		var b []byte
		for _, c := range []byte(s) {
			b = append(b, c, 0)
		}
		return b
	}
	// The directory sector lies past the head, as in real workbooks.
	body := append([]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), make([]byte, HeadSize*2)...)
	body = append(body, u16("Workbook")...)
	p := filepath.Join(dir, "old.dat")
	if err := os.WriteFile(p, body, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := DetectFile(p); err != nil || got != "xls" {
		t.Errorf("DetectFile = %q, %v; want xls", got, err)
	}
}
