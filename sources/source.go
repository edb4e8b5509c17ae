package sources

import (
	"context"
	"io"

	"synth/schemas"
)

// Source yields files from one place: the built-in corpus, a folder, Kaggle,
// arXiv, a PyBench checkout.
type Source interface {
	// Kind is the source's name in specs and provenance: sample, local, ….
	Kind() string
	// Collect calls put once per file found, in a deterministic order, and
	// stops at the first error put returns or when ctx is done. A file the
	// source cannot read is skipped with a log line, not an error; an error
	// is for a source that cannot go on (bad credentials, unreachable API).
	Collect(ctx context.Context, put func(Item) error) error
}

// Item is a file found by a source. Body is read once, by put; the source
// closes it (if it needs closing) after put returns.
type Item struct {
	Name   string // base name, as the source knows it
	Body   io.Reader
	Source schemas.Source
	// Size is the size the source expects, or 0 if unknown. A store rejects
	// an item over its limit by Size before reading Body.
	Size int64
}
