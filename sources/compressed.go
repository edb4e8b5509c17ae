package sources

import (
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// compression is a single-stream compression format, known by its magic
// bytes and the extensions it is saved under.
type compression struct {
	name  string
	magic string
	exts  []string
	open  func(io.Reader) (io.Reader, func(), error)
}

var compressions = []compression{
	{"gzip", "\x1f\x8b", []string{".gz", ".gzip"}, func(r io.Reader) (io.Reader, func(), error) {
		z, err := gzip.NewReader(r)
		if err != nil {
			return nil, nil, err
		}
		z.Multistream(true)
		return z, func() { z.Close() }, nil
	}},
	{"bzip2", "BZh", []string{".bz2", ".bzip2"}, func(r io.Reader) (io.Reader, func(), error) {
		return bzip2.NewReader(r), func() {}, nil
	}},
	{"xz", "\xfd7zXZ\x00", []string{".xz"}, func(r io.Reader) (io.Reader, func(), error) {
		z, err := xz.NewReader(r)
		return z, func() {}, err
	}},
	{"zstd", "\x28\xb5\x2f\xfd", []string{".zst", ".zstd"}, func(r io.Reader) (io.Reader, func(), error) {
		z, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(256<<20))
		if err != nil {
			return nil, nil, err
		}
		return z, z.Close, nil
	}},
}

// compressedMagicLen is how many bytes the magic numbers need.
const compressedMagicLen = 6

func compressionOf(head []byte) (compression, bool) {
	for _, c := range compressions {
		if strings.HasPrefix(string(head), c.magic) {
			return c, true
		}
	}
	return compression{}, false
}

// innerName is the name of what a compressed file holds: data.csv for
// data.csv.gz, data.tar for data.tgz; a name without a known extension
// keeps its name.
func innerName(name string, c compression) string {
	lower := strings.ToLower(name)
	for _, ext := range c.exts {
		if strings.HasSuffix(lower, ext) && len(name) > len(ext) {
			return name[:len(name)-len(ext)]
		}
	}
	for _, tgz := range []string{".tgz", ".tbz2", ".txz", ".tzst"} {
		if strings.HasSuffix(lower, tgz) {
			return name[:len(name)-len(tgz)] + ".tar"
		}
	}
	return name
}

// EachDecompressed unpacks an item that is one gzip, bzip2, xz or zstd
// stream (known by its magic bytes, whatever its name says): fn gets the
// file it holds, named without the compression's extension, or, when that
// file is a tar, each safe entry of it (as EachTar). The limits hold as for
// archives: at most MaxTotalBytes come out, and never more than MaxRatio
// times the compressed bytes read (past the first MiB), so a bomb fails
// with ErrArchiveLimit rather than filling the disk. handled is false, and
// nothing is read past the head, for an item that is not compressed; its
// Body is then to be read from the returned item.
func EachDecompressed(it Item, lim ArchiveLimits, fn func(Item) error) (rest Item, handled bool, skipped []Skipped, err error) {
	if it.Body == nil {
		return it, false, nil, nil
	}
	br := bufio.NewReaderSize(it.Body, 64<<10)
	it.Body = br
	head, _ := br.Peek(compressedMagicLen)
	c, ok := compressionOf(head)
	if !ok {
		return it, false, nil, nil
	}
	lim = lim.withDefaults()
	counted := &compressedCounter{r: br}
	z, done, err := c.open(counted)
	if err != nil {
		return it, true, nil, fmt.Errorf("%s: %s: %w", it.Name, c.name, err)
	}
	defer done()
	out := &ratioReader{r: z, in: counted, lim: lim, what: it.Name}
	inner := bufio.NewReaderSize(out, 1024)
	name := path.Base(innerName(it.Name, c))
	if h, _ := inner.Peek(512); len(h) >= 262 && string(h[257:262]) == "ustar" {
		skipped, err := EachTar(inner, lim, func(e Entry) error {
			sub := it
			sub.Name, sub.Body, sub.Size = path.Base(e.Path), e.Body, e.Size
			sub.Source.Ref = it.Source.Ref + "/" + e.Path
			return fn(sub)
		})
		return it, true, skipped, err
	}
	sub := it
	sub.Name, sub.Body, sub.Size = name, inner, 0
	return it, true, nil, fn(sub)
}

// compressedCounter counts the compressed bytes read.
type compressedCounter struct {
	r io.Reader
	n int64
}

func (c *compressedCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ratioReader fails once its output outgrows the limits.
type ratioReader struct {
	r    io.Reader
	in   *compressedCounter
	out  int64
	lim  ArchiveLimits
	what string
}

func (r *ratioReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.out += int64(n)
	if r.out > r.lim.MaxTotalBytes {
		return n, fmt.Errorf("%s: more than %d bytes uncompressed: %w", r.what, r.lim.MaxTotalBytes, ErrArchiveLimit)
	}
	if r.out > 1<<20 && float64(r.out) > r.lim.MaxRatio*float64(max(r.in.n, 1)) {
		return n, fmt.Errorf("%s: uncompressed %d bytes from %d, over the ratio limit of %.0f: %w", r.what, r.out, r.in.n, r.lim.MaxRatio, ErrArchiveLimit)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("%s: the compressed stream is cut short: %w", r.what, err)
	}
	return n, err
}
