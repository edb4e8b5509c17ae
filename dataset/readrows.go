package dataset

import (
	"fmt"
	"io"
	"os"

	"github.com/parquet-go/parquet-go"

	"synth/schemas"
)

// ReadRows calls fn for each row of a Parquet shard written by a Writer, in
// either format, in order. fn must not keep r past its return.
func ReadRows(path string, fn func(r *schemas.Row) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if FormatOf(pf.Schema()) == FormatOpenAITools {
		if legacyTools(pf.Schema()) {
			return readAll(pf, path, func(t *legacyToolsRow) error {
				r := rowOfLegacyTools(t)
				return fn(&r)
			})
		}
		return readAll(pf, path, func(t *toolsRow) error {
			r := rowOfTools(t)
			return fn(&r)
		})
	}
	return readAll(pf, path, fn)
}

// FormatOf returns the format of a shard's schema: openai-tools when its
// messages carry tool_call_id, else pybench.
func FormatOf(s *parquet.Schema) string {
	if _, ok := s.Lookup("messages", "list", "element", "tool_call_id"); ok {
		return FormatOpenAITools
	}
	return FormatPyBench
}

func readAll[T any](pf *parquet.File, path string, fn func(*T) error) error {
	r := parquet.NewGenericReader[T](pf)
	defer r.Close()
	buf := make([]T, 64)
	for {
		n, err := r.Read(buf)
		for i := range buf[:n] {
			if ferr := fn(&buf[i]); ferr != nil {
				return ferr
			}
		}
		clear(buf[:n])
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}

// ShardFormat returns the format of the Parquet shard at path.
func ShardFormat(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return FormatOf(pf.Schema()), nil
}
