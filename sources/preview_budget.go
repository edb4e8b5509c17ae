package sources

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"time"
)

// Budgets of one table preview (csv, tsv, xlsx): a file past them is not
// previewed, and Preview says which budget it broke, so that one hostile
// or huge file cannot stall collection or generation.
const (
	PreviewMaxRows  = 2_000_000        // data rows counted
	PreviewMaxBytes = 512 << 20        // bytes read: the file, or an xlsx's unpacked parts
	PreviewMaxTime  = 20 * time.Second // wall time
	PreviewMaxRatio = 100              // an xlsx part's unpacked/packed size, above 1 MiB unpacked
)

// ErrPreviewBudget is wrapped by the error of a preview past a budget.
var ErrPreviewBudget = errors.New("too large to preview")

// tableBudget counts rows and time against the preview budgets.
type tableBudget struct {
	start time.Time
	rows  int
}

func newTableBudget() *tableBudget { return &tableBudget{start: time.Now()} }

// row counts one data row and fails once a budget is spent.
func (b *tableBudget) row() error {
	b.rows++
	if b.rows > PreviewMaxRows {
		return fmt.Errorf("%w: more than %d rows", ErrPreviewBudget, PreviewMaxRows)
	}
	if b.rows%4096 == 0 && time.Since(b.start) > PreviewMaxTime {
		return fmt.Errorf("%w: still reading after %s (%d rows so far)", ErrPreviewBudget, PreviewMaxTime, b.rows)
	}
	return nil
}

// countingReader fails once more than max bytes were read through it.
type countingReader struct {
	r    io.Reader
	n    int64
	max  int64
	what string
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return n, fmt.Errorf("%w: %s is larger than %d bytes", ErrPreviewBudget, c.what, c.max)
	}
	return n, err
}

// checkXLSXParts refuses a workbook whose parts unpack past the byte budget
// or with a ratio that marks a decompression bomb, before any is unpacked.
func checkXLSXParts(path string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		if f.UncompressedSize64 > 1<<20 && f.CompressedSize64 > 0 &&
			f.UncompressedSize64/f.CompressedSize64 > PreviewMaxRatio {
			return fmt.Errorf("%w: part %s unpacks %d times its packed size (%d bytes; a decompression bomb?)",
				ErrPreviewBudget, f.Name, f.UncompressedSize64/f.CompressedSize64, f.UncompressedSize64)
		}
	}
	if total > PreviewMaxBytes {
		return fmt.Errorf("%w: its parts unpack to %d bytes, past %d", ErrPreviewBudget, total, PreviewMaxBytes)
	}
	return nil
}
