package sources

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

type testEntry struct {
	name, body string
	mode       os.FileMode
}

func makeZip(t *testing.T, entries []testEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, e.body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestEachZip(t *testing.T) {
	z := makeZip(t, []testEntry{
		{name: "ok/a.csv", body: "a,b\n1,2\n"},
		{name: "../../evil.sh", body: "rm -rf /"},
		{name: "/etc/cron.d/x", body: "* * * * * x"},
		{name: `..\win.txt`, body: "x"},
		{name: "C:/boot.ini", body: "x"},
		{name: "link", body: "/etc/shadow", mode: os.ModeSymlink | 0o777},
		{name: "dir/", mode: os.ModeDir | 0o755},
		{name: "bomb.bin", body: strings.Repeat("0", 8<<20)},
		{name: "b.txt", body: "hello"},
	})
	var got []string
	skipped, err := EachZip(bytes.NewReader(z), int64(len(z)), ArchiveLimits{}, func(e Entry) error {
		b, err := io.ReadAll(e.Body)
		if err != nil {
			return err
		}
		got = append(got, e.Path+"="+string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ok/a.csv=a,b\n1,2\n", "b.txt=hello"}; !slices.Equal(got, want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	reasons := map[string]string{}
	for _, s := range skipped {
		reasons[s.Path] = s.Reason
	}
	for name, want := range map[string]string{
		"../../evil.sh": "unsafe path", "/etc/cron.d/x": "unsafe path", `..\win.txt`: "unsafe path",
		"C:/boot.ini": "unsafe path", "link": "not a regular file", "bomb.bin": "compression ratio",
	} {
		if !strings.Contains(reasons[name], want) {
			t.Errorf("%s: skipped for %q, want %q", name, reasons[name], want)
		}
	}
}

func TestEachZipLimits(t *testing.T) {
	var entries []testEntry
	for i := range 5 {
		entries = append(entries, testEntry{name: string(rune('a'+i)) + ".txt", body: strings.Repeat("x", 1000)})
	}
	z := makeZip(t, entries)
	count := func(lim ArchiveLimits) (int, []Skipped) {
		n := 0
		sk, err := EachZip(bytes.NewReader(z), int64(len(z)), lim, func(e Entry) error {
			_, err := io.Copy(io.Discard, e.Body)
			n++
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return n, sk
	}
	if n, sk := count(ArchiveLimits{MaxEntries: 2}); n != 2 || len(sk) != 3 || !strings.Contains(sk[0].Reason, "max_entries") {
		t.Errorf("max entries: %d taken, skipped %v", n, sk)
	}
	if n, sk := count(ArchiveLimits{MaxTotalBytes: 2500}); n != 2 || len(sk) != 3 || !strings.Contains(sk[0].Reason, "max_total_bytes") {
		t.Errorf("max total: %d taken, skipped %v", n, sk)
	}
	if _, err := EachZip(bytes.NewReader(z[:len(z)/2]), int64(len(z)/2), ArchiveLimits{}, func(Entry) error { return nil }); err == nil {
		t.Error("a truncated zip opened without error")
	}
	stop := errors.New("stop")
	if _, err := EachZip(bytes.NewReader(z), int64(len(z)), ArchiveLimits{}, func(Entry) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("callback error = %v", err)
	}
}

// A zip whose header understates an entry's size must not yield more.
func TestEachZipLyingSize(t *testing.T) {
	z := makeZip(t, []testEntry{{name: "a.txt", body: strings.Repeat("y", 5000)}})
	// Patch the central directory's uncompressed size (offset 24 in the
	// central header) to 10 bytes.
	i := bytes.LastIndex(z, []byte("PK\x01\x02"))
	copy(z[i+24:], []byte{10, 0, 0, 0})
	var read int
	_, err := EachZip(bytes.NewReader(z), int64(len(z)), ArchiveLimits{}, func(e Entry) error {
		b, err := io.ReadAll(e.Body)
		read = len(b)
		return err
	})
	if err == nil && read > 10 {
		t.Errorf("read %d bytes of an entry declared as 10", read)
	}
}

func TestEachTar(t *testing.T) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(h *tar.Header, body string) {
		h.Size = int64(len(body))
		if h.Typeflag != tar.TypeReg {
			h.Size = 0
			body = ""
		}
		h.Mode = 0o644
		tw.WriteHeader(h)
		io.WriteString(tw, body)
	}
	add(&tar.Header{Name: "paper/main.tex", Typeflag: tar.TypeReg}, "\\begin{document}")
	add(&tar.Header{Name: "../../x.tex", Typeflag: tar.TypeReg}, "evil")
	add(&tar.Header{Name: "/abs.tex", Typeflag: tar.TypeReg}, "evil")
	add(&tar.Header{Name: "sym.tex", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}, "")
	add(&tar.Header{Name: "hard.tex", Typeflag: tar.TypeLink, Linkname: "paper/main.tex"}, "")
	add(&tar.Header{Name: "b.txt", Typeflag: tar.TypeReg}, "ok")
	tw.Close()
	var got []string
	skipped, err := EachTar(&buf, ArchiveLimits{}, func(e Entry) error {
		b, _ := io.ReadAll(e.Body)
		got = append(got, e.Path+"="+string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"paper/main.tex=\\begin{document}", "b.txt=ok"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if len(skipped) != 4 {
		t.Errorf("skipped %v, want 4", skipped)
	}
}
