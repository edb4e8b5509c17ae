package sources

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The fuzz targets of this file feed untrusted bytes to every reader a
// collected file meets: type detection, archive walking and the previews.
// `go test` runs their seeds; scripts/fuzz.sh (make fuzz) fuzzes each.

func FuzzDetect(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\x89PNG\r\n\x1a\n", "PK\x03\x04", "{\"a\": 1}", "<html><a href=x>", "\xff\xfe{\x00", "ID3\x03", "RIFF\x00\x00\x00\x00WAVE"} {
		f.Add([]byte(s), "x.csv")
	}
	f.Fuzz(func(t *testing.T, head []byte, name string) {
		if typ := Detect(head, name); typ == "" {
			t.Fatalf("Detect gave no type for %q", head)
		}
	})
}

func FuzzSafeEntryPath(f *testing.F) {
	for _, s := range []string{"a/b.csv", "../x", "/etc/passwd", `..\x`, "C:/x", "a/./b", "a//b", ".", "a/../../b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		p, ok := SafeEntryPath(name)
		if !ok {
			return
		}
		if p == "" || p == "." || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || filepath.IsAbs(p) {
			t.Fatalf("SafeEntryPath(%q) = %q, accepted", name, p)
		}
		for _, seg := range strings.Split(p, "/") {
			if seg == ".." || seg == "" {
				t.Fatalf("SafeEntryPath(%q) = %q, accepted", name, p)
			}
		}
	})
}

func zipOf(t testing.TB, files map[string]string) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fw, err := w.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(fw, files[n])
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func tarOf(t testing.TB, files map[string]string) []byte {
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for n, body := range files {
		if err := w.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, body)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// archiveEntries reads every entry an archive walk hands out, holding it to
// the walk's promises: a safe path, and a body no longer than the limit.
func archiveEntries(t *testing.T, lim ArchiveLimits) func(Entry) error {
	return func(e Entry) error {
		if p, ok := SafeEntryPath(e.Path); !ok || p != e.Path {
			t.Fatalf("entry %q handed out", e.Path)
		}
		n, _ := io.Copy(io.Discard, e.Body)
		if n > lim.MaxTotalBytes {
			t.Fatalf("entry %q gave %d bytes, over the %d limit", e.Path, n, lim.MaxTotalBytes)
		}
		return nil
	}
}

var fuzzLimits = ArchiveLimits{MaxEntries: 16, MaxTotalBytes: 1 << 18, MaxRatio: 100}

func FuzzEachZip(f *testing.F) {
	f.Add(zipOf(f, map[string]string{"a.csv": "x,y\n1,2\n", "d/b.txt": "hello"}))
	f.Add(zipOf(f, map[string]string{"../evil.csv": "x", "ok.csv": strings.Repeat("a", 5000)}))
	f.Fuzz(func(t *testing.T, data []byte) {
		EachZip(bytes.NewReader(data), int64(len(data)), fuzzLimits, archiveEntries(t, fuzzLimits.withDefaults()))
	})
}

func FuzzEachTar(f *testing.F) {
	f.Add(tarOf(f, map[string]string{"a.csv": "x,y\n1,2\n"}))
	f.Add(tarOf(f, map[string]string{"/abs.csv": "x", "../up": "y"}))
	f.Fuzz(func(t *testing.T, data []byte) {
		EachTar(bytes.NewReader(data), fuzzLimits, archiveEntries(t, fuzzLimits.withDefaults()))
	})
}

// previewTypes are the types fuzzed through their previewer, called directly
// so a panic is found rather than turned into an error by Preview.
var previewTypes = []string{"csv", "tsv", "xlsx", "txt", "json", "jsonl", "html", "docx", "pdf", "png", "jpeg", "gif", "webp", "bmp", "wav", "mp3", "flac", "mp4"}

func FuzzPreview(f *testing.F) {
	f.Add(uint8(0), []byte("a,b\n1,2\n3,x\n"))
	f.Add(uint8(1), []byte("a\tb\n1\t2\n"))
	f.Add(uint8(2), zipOf(f, map[string]string{"[Content_Types].xml": "<Types/>", "xl/workbook.xml": "<workbook><sheets><sheet name='S' sheetId='1' r:id='rId1'/></sheets></workbook>"}))
	f.Add(uint8(6), []byte("<html><head><title>t</title></head><body><!-- <a href=x> --><a href='y'>y</a></body></html>"))
	f.Add(uint8(7), zipOf(f, map[string]string{"word/document.xml": "<w:document><w:body><w:p><w:r><w:t>hi</w:t></w:r></w:p></w:body></w:document>"}))
	f.Add(uint8(8), []byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF"))
	f.Add(uint8(9), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"))
	f.Add(uint8(14), []byte("RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x44\xac\x00\x00\x88\x58\x01\x00\x02\x00\x10\x00data\x00\x00\x00\x00"))
	f.Add(uint8(15), []byte("\xff\xfb\x90\x64"+strings.Repeat("\x00", 413)+"\xff\xfb\x90\x64"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		typ := previewTypes[int(which)%len(previewTypes)]
		fn := builtinPreviewers[typ]
		if fn == nil {
			return
		}
		p := filepath.Join(dir, "f."+typ)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fn(p)
	})
}

func FuzzParseMP3Header(f *testing.F) {
	f.Add([]byte("\xff\xfb\x90\x64"))
	f.Add([]byte("\xff\xf3\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, ok := parseMP3Header(b)
		if ok {
			mp3FrameCount(b, h)
		}
	})
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"sample", "local:./x", "kaggle:owner/ds", "kaggle:competition/titanic", "arxiv:llm agents", "hf:x", "local:", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ParseSpec(s)
		ParseSize(s)
	})
}
