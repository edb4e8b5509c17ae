package sources

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"synth/schemas"
)

func TestPreview(t *testing.T) {
	cols := func(kv ...string) []schemas.Column {
		var c []schemas.Column
		for i := 0; i < len(kv); i += 2 {
			c = append(c, schemas.Column{Name: kv[i], DType: kv[i+1]})
		}
		return c
	}
	scores := cols("id", "int", "name", "string", "score", "float", "joined", "date")
	cases := []struct {
		file, typ string
		want      schemas.Preview
		text      string // Text or Head must contain this
	}{
		{"scores.csv", "csv", schemas.Preview{Columns: scores, Rows: 4, Encoding: "utf-8", Delimiter: ",", Read: `encoding="utf-8", sep=","`}, "Bob"},
		{"scores.tsv", "tsv", schemas.Preview{Columns: scores, Rows: 4, Encoding: "utf-8", Delimiter: "\t", Read: `encoding="utf-8", sep="\t"`}, "Ann"},
		{"semicolon.csv", "csv", schemas.Preview{Columns: scores, Rows: 4, Encoding: "utf-8", Delimiter: ";", Read: `encoding="utf-8", sep=";"`}, "Ann"},
		{"gbk.csv", "csv", schemas.Preview{Columns: cols("城市", "string", "人口", "int", "面积", "int"), Rows: 3, Encoding: "gbk", Delimiter: ",", Read: `encoding="gbk", sep=","`}, "北京"},
		{"utf16.csv", "csv", schemas.Preview{Columns: cols("name", "string", "value", "int"), Rows: 2, Encoding: "utf-16", Delimiter: ",", Read: `encoding="utf-16", sep=","`}, "café"},
		{"sales.xlsx", "xlsx", schemas.Preview{Columns: cols("region", "string", "units", "int", "price", "float"), Rows: 7, Sheets: []string{"Sales", "Notes"}, Read: `sheet_name="Sales"`}, "north"},
		{"red.png", "png", schemas.Preview{Width: 40, Height: 30, Mode: "RGB"}, ""},
		{"alpha.png", "png", schemas.Preview{Width: 8, Height: 6, Mode: "RGBA"}, ""},
		{"gray.jpg", "jpeg", schemas.Preview{Width: 20, Height: 10, Mode: "L"}, ""},
		{"photo.jpeg", "jpeg", schemas.Preview{Width: 33, Height: 17, Mode: "RGB"}, ""},
		{"anim.gif", "gif", schemas.Preview{Width: 12, Height: 9, Mode: "P", Frames: 3}, ""},
		{"green.webp", "webp", schemas.Preview{Width: 50, Height: 25, Mode: "RGB"}, ""},
		{"lossless.webp", "webp", schemas.Preview{Width: 50, Height: 25, Mode: "RGB"}, ""},
		{"tone.wav", "wav", schemas.Preview{DurationS: 1.5, SampleRate: 8000, Channels: 2}, ""},
		{"notes.md", "md", schemas.Preview{Encoding: "utf-8"}, "# Title"},
		{"page.html", "html", schemas.Preview{Encoding: "utf-8"}, "Hello\nWorld"},
		{"report.docx", "docx", schemas.Preview{}, "Quarterly report\nRevenue grew."},
		{"paper.pdf", "pdf", schemas.Preview{Pages: 2}, "Attention Is What You Need"},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			p, err := Preview(filepath.Join("testdata", "files", tc.file), tc.typ)
			if err != nil {
				t.Fatal(err)
			}
			if p == nil {
				t.Fatal("no preview")
			}
			if !strings.Contains(p.Text+p.Head, tc.text) {
				t.Errorf("text %q / head %q does not contain %q", p.Text, p.Head, tc.text)
			}
			if diff := cmp.Diff(tc.want, *p, cmpopts.IgnoreFields(schemas.Preview{}, "Text", "Head")); diff != "" {
				t.Errorf("preview (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreviewAudioHeaders(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// 100 frames of 1152 samples at 44.1 kHz is 2.612 s.
	mp3 := write("a.mp3", mp3Frames(100))
	p, err := Preview(mp3, "mp3")
	if err != nil {
		t.Fatal(err)
	}
	if p.SampleRate != 44100 || p.Channels != 2 || p.DurationS < 2.6 || p.DurationS > 2.62 {
		t.Errorf("mp3 preview = %+v, want 44100 Hz, 2 ch, about 2.61 s", p)
	}

	// An ID3v2 tag of 6 bytes (size 6 is not a multiple of the header's 10).
	tagged := append([]byte("ID3\x04\x00\x00\x00\x00\x00\x06TAGTAG"), mp3Frames(100)...)
	p, err = Preview(write("tagged.mp3", tagged), "mp3")
	if err != nil {
		t.Fatal(err)
	}
	if p.SampleRate != 44100 || p.DurationS < 2.6 || p.DurationS > 2.62 {
		t.Errorf("tagged mp3 preview = %+v", p)
	}

	si := make([]byte, 42)
	copy(si, "fLaC")
	si[4] = 0x80 // last metadata block, STREAMINFO
	si[7] = 34
	// sample rate 16000, 1 channel, 16 bits, 48000 samples
	v := uint64(16000)<<44 | uint64(0)<<41 | uint64(15)<<36 | 48000
	binary.BigEndian.PutUint64(si[18:], v)
	p, err = Preview(write("a.flac", si), "flac")
	if err != nil {
		t.Fatal(err)
	}
	if p.SampleRate != 16000 || p.Channels != 1 || p.DurationS != 3 {
		t.Errorf("flac preview = %+v, want 16000 Hz, 1 ch, 3 s", p)
	}

	// A WAV whose data chunk claims more than the file holds (cut download).
	wav, _ := os.ReadFile(filepath.Join("testdata", "files", "tone.wav"))
	p, err = Preview(write("cut.wav", wav[:len(wav)/2]), "wav")
	if err != nil {
		t.Fatal(err)
	}
	if p.DurationS <= 0.7 || p.DurationS >= 0.8 {
		t.Errorf("cut wav duration = %v, want about 0.75", p.DurationS)
	}
}

func TestPreviewBroken(t *testing.T) {
	dir := t.TempDir()
	png, _ := os.ReadFile(filepath.Join("testdata", "files", "red.png"))
	cases := []struct {
		name, typ string
		body      []byte
	}{
		{"cut.png", "png", png[:20]},
		{"cut.pdf", "pdf", []byte("%PDF-1.4\n1 0 obj\n")},
		{"bad.xlsx", "xlsx", []byte("PK\x03\x04garbage")},
		{"bad.wav", "wav", []byte("RIFF\x00\x00\x00\x00WAVE")},
		{"bad.mp3", "mp3", []byte("ID3\x03\x00\x00\x00\x00\x00\x00nothing here")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, tc.body, 0o644); err != nil {
				t.Fatal(err)
			}
			if got, err := Preview(p, tc.typ); err == nil {
				t.Errorf("Preview = %+v, want an error", got)
			}
		})
	}
}
