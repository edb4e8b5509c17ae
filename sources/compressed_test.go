package sources

import (
	"bytes"
	"compress/gzip"
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"

	"synth/schemas"
)

const rainCSV = "city,rain\nOslo,3\nBergen,9\n"

// rainBz2 is rainCSV compressed by bzip2 (Go's library only reads bzip2).
var rainBz2 = []byte{0x42, 0x5a, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59, 0xc8, 0xc6, 0xce, 0x44, 0x0, 0x0, 0x5, 0xdd, 0x80, 0x0, 0x10, 0x0, 0x4, 0x8, 0x20, 0x10, 0x0, 0xaa, 0xa5, 0x9c, 0x20, 0x20, 0x0, 0x22, 0x23, 0xd4, 0xc4, 0xc, 0x98, 0x85, 0x34, 0xc8, 0xc4, 0xc4, 0xc4, 0xc, 0x6e, 0x29, 0x49, 0x4a, 0x2e, 0xfb, 0xc7, 0x5a, 0x62, 0x27, 0x82, 0x4e, 0xbe, 0x2e, 0xe4, 0x8a, 0x70, 0xa1, 0x21, 0x91, 0x8d, 0x9c, 0x88}

func gzipOf(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write(b)
	z.Close()
	return buf.Bytes()
}

func xzOf(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	z, err := xz.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	z.Write(b)
	z.Close()
	return buf.Bytes()
}

func zstdOf(t testing.TB, b []byte) []byte {
	z, _ := zstd.NewWriter(nil)
	defer z.Close()
	return z.EncodeAll(b, nil)
}

// TestCompressedFilesAreUnpacked: a table saved as .csv.gz, .bz2, .xz or
// .zst is stored as the CSV it holds, a .tar.gz as its entries, and a
// bomb (64 MiB of zeros in a few KiB) is skipped by the archive limits.
func TestCompressedFilesAreUnpacked(t *testing.T) {
	src := func(name string, body []byte) Item {
		return Item{Name: name, Body: bytes.NewReader(body), Source: schemas.Source{Kind: "local", Ref: name}}
	}
	in := []Item{
		src("rain.csv.gz", gzipOf(t, []byte(rainCSV))),
		src("rain.csv.bz2", rainBz2),
		src("rain2.csv.xz", xzOf(t, []byte(rainCSV+"Bodø,12\n"))),
		src("rain3.csv.zst", zstdOf(t, []byte(rainCSV+"Tromsø,5\n"))),
		src("tables.tgz", gzipOf(t, tarOf(t, map[string]string{"a/one.csv": "x,y\n1,2\n3,4\n", "a/../../evil.csv": "x\n1\n"}))),
		src("bomb.csv.gz", gzipOf(t, make([]byte, 64<<20))),
		src("plain.csv", []byte("p,q\n5,6\n")),
	}
	st, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	var got []string
	stats, err := Collect(context.Background(), &listSource{items: in}, st, Limits{Archive: ArchiveLimits{MaxRatio: 200}}, slog.New(slog.NewTextHandler(&logs, nil)), func(f schemas.File) error {
		got = append(got, f.Name+":"+f.Type)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"rain.csv:csv", "rain.csv:csv", "rain2.csv:csv", "rain3.csv:csv", "one.csv:csv", "plain.csv:csv"}
	if !slices.Equal(got, want) {
		t.Errorf("stored %v, want %v", got, want)
	}
	if stats.Stored != 5 || stats.Duplicates != 1 {
		t.Errorf("stats = %+v, want 5 stored and the bz2 a duplicate of the gz", stats)
	}
	if !strings.Contains(logs.String(), "bomb.csv.gz") || stats.Skipped["unreadable"] != 1 || stats.Skipped["archive_entry"] != 1 {
		t.Errorf("the bomb and the unsafe tar entry are not both skipped: %+v\n%s", stats, logs.String())
	}
}

// FuzzDecompressed feeds any bytes to EachDecompressed: it must not panic,
// and what comes out never outgrows the limit.
func FuzzDecompressed(f *testing.F) {
	f.Add(gzipOf(nil, []byte(rainCSV)))
	f.Add(rainBz2)
	f.Add(zstdOf(nil, []byte(rainCSV)))
	f.Add(gzipOf(nil, make([]byte, 1<<16)))
	f.Add([]byte("\x1f\x8b\x08\x00garbage"))
	f.Fuzz(func(t *testing.T, b []byte) {
		lim := ArchiveLimits{MaxEntries: 4, MaxTotalBytes: 1 << 16, MaxRatio: 50}
		EachDecompressed(Item{Name: "x.gz", Body: bytes.NewReader(b)}, lim, func(it Item) error {
			var out bytes.Buffer
			out.ReadFrom(it.Body)
			if out.Len() > 1<<16+64<<10 {
				t.Fatalf("%d bytes came out, over the limit", out.Len())
			}
			return nil
		})
	})
}
