package sources

import (
	"archive/tar"
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// ArchiveLimits bound what unpacking an archive may produce.
type ArchiveLimits struct {
	MaxEntries    int     // regular entries taken; 0: 10000
	MaxTotalBytes int64   // uncompressed bytes per archive; 0: 4 GiB
	MaxRatio      float64 // uncompressed/compressed bytes per zip entry; 0: 200
}

func (l ArchiveLimits) withDefaults() ArchiveLimits {
	if l.MaxEntries <= 0 {
		l.MaxEntries = 10000
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = 4 << 30
	}
	if l.MaxRatio <= 0 {
		l.MaxRatio = 200
	}
	return l
}

// ArchiveLimitsFrom reads the archive section of a Config.
func ArchiveLimitsFrom(c ArchiveConfig) (ArchiveLimits, error) {
	total, err := ParseSize(c.MaxTotalBytes)
	if err != nil {
		return ArchiveLimits{}, fmt.Errorf("sources.archive.max_total_bytes: %w", err)
	}
	return ArchiveLimits{MaxEntries: c.MaxEntries, MaxTotalBytes: total, MaxRatio: c.MaxRatio}, nil
}

// Entry is a regular file inside an archive, handed to the callback of
// EachZip or EachTar. Body reads the uncompressed content and fails (with
// ErrArchiveLimit) if it outgrows what the archive declared or the limits.
type Entry struct {
	Path string // slash path inside the archive, cleaned and relative
	Size int64  // declared uncompressed size
	Body io.Reader
}

// Skipped is an archive entry left out, and why.
type Skipped struct {
	Path   string
	Reason string
}

// ErrArchiveLimit is wrapped by errors of an entry that outgrows a limit.
var ErrArchiveLimit = errors.New("archive limit")

// SafeEntryPath cleans an archive entry name and reports whether it stays
// inside the extraction root: no absolute path, drive letter or ".."
// element, no backslash tricks.
func SafeEntryPath(name string) (string, bool) {
	n := strings.ReplaceAll(name, `\`, "/")
	if n == "" || strings.HasPrefix(n, "/") || len(n) >= 2 && n[1] == ':' {
		return "", false
	}
	for _, seg := range strings.Split(n, "/") {
		if seg == ".." {
			return "", false
		}
	}
	c := path.Clean(n)
	if c == "." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}

// EachZip calls fn for each regular, safe entry of the zip in r, in
// archive order. Unsafe entries (zip-slip paths, absolute paths, symlinks),
// entries whose compression ratio marks a bomb, and entries beyond the
// count or total-size limits are skipped and returned; fn's error stops the
// walk and is returned. A body that outgrows its declared size fails.
func EachZip(r io.ReaderAt, size int64, lim ArchiveLimits, fn func(Entry) error) ([]Skipped, error) {
	lim = lim.withDefaults()
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("zip: %w", err)
	}
	var skipped []Skipped
	skip := func(name, why string) { skipped = append(skipped, Skipped{Path: name, Reason: why}) }
	var total int64
	taken := 0
	for _, e := range zr.File {
		mode := e.Mode()
		switch {
		case e.FileInfo().IsDir():
			continue
		case !mode.IsRegular():
			skip(e.Name, "not a regular file (symlink or device)")
			continue
		}
		p, ok := SafeEntryPath(e.Name)
		if !ok {
			skip(e.Name, "unsafe path (absolute or leaving the archive root)")
			continue
		}
		if taken >= lim.MaxEntries {
			skip(p, fmt.Sprintf("over the limit of %d entries (sources.archive.max_entries)", lim.MaxEntries))
			continue
		}
		usize := int64(e.UncompressedSize64)
		if e.CompressedSize64 > 0 && float64(usize)/float64(e.CompressedSize64) > lim.MaxRatio && usize > 1<<20 {
			skip(p, fmt.Sprintf("compression ratio %.0f over the limit of %.0f (a zip bomb?; sources.archive.max_ratio)", float64(usize)/float64(e.CompressedSize64), lim.MaxRatio))
			continue
		}
		if total+usize > lim.MaxTotalBytes {
			skip(p, fmt.Sprintf("archive total over the limit of %d bytes (sources.archive.max_total_bytes)", lim.MaxTotalBytes))
			continue
		}
		rc, err := e.Open()
		if err != nil {
			skip(p, err.Error())
			continue
		}
		budget := min(usize, lim.MaxTotalBytes-total)
		body := &boundedReader{r: rc, left: budget, what: p}
		err = fn(Entry{Path: p, Size: usize, Body: body})
		rc.Close()
		total += budget - body.left
		if err != nil {
			return skipped, err
		}
		taken++
	}
	return skipped, nil
}

// EachTar is EachZip for a tar stream (already decompressed): symlinks,
// hard links and devices are skipped, as are unsafe paths.
func EachTar(r io.Reader, lim ArchiveLimits, fn func(Entry) error) ([]Skipped, error) {
	lim = lim.withDefaults()
	tr := tar.NewReader(r)
	var skipped []Skipped
	var total int64
	taken := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return skipped, nil
		}
		if err != nil {
			return skipped, fmt.Errorf("tar: %w", err)
		}
		switch h.Typeflag {
		case tar.TypeReg, tar.TypeRegA:
		case tar.TypeDir:
			continue
		default:
			skipped = append(skipped, Skipped{Path: h.Name, Reason: "not a regular file (link or device)"})
			continue
		}
		p, ok := SafeEntryPath(h.Name)
		if !ok {
			skipped = append(skipped, Skipped{Path: h.Name, Reason: "unsafe path (absolute or leaving the archive root)"})
			continue
		}
		if taken >= lim.MaxEntries {
			skipped = append(skipped, Skipped{Path: p, Reason: fmt.Sprintf("over the limit of %d entries", lim.MaxEntries)})
			continue
		}
		if total+h.Size > lim.MaxTotalBytes {
			skipped = append(skipped, Skipped{Path: p, Reason: fmt.Sprintf("archive total over the limit of %d bytes", lim.MaxTotalBytes)})
			continue
		}
		body := &boundedReader{r: tr, left: h.Size, what: p}
		if err := fn(Entry{Path: p, Size: h.Size, Body: body}); err != nil {
			return skipped, err
		}
		total += h.Size
		taken++
	}
}

// boundedReader fails once more than left bytes come out of r.
type boundedReader struct {
	r    io.Reader
	left int64
	what string
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, _ := b.r.Read(one[:]); n > 0 {
			return 0, fmt.Errorf("%s: more content than declared: %w", b.what, ErrArchiveLimit)
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}
