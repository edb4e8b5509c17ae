package schemas

import "time"

// File is one collected input file, stored content-addressed by its sha256.
//
// In files.jsonl a file's first arrival is a full record; each later
// arrival of the same content from another place is a reference record
// holding only DuplicateOf and that Source, so the manifest grows by one
// short line per duplicate. Readers fold a reference into Sources of the
// record it names. Manifests written before reference records repeat the
// whole record with every provenance so far in Sources; the last one wins.
type File struct {
	ID     string `json:"id,omitempty"` // hex sha256 of the content; empty in a reference record
	Name   string `json:"name,omitempty"`
	Type   string `json:"type,omitempty"` // by content: csv, tsv, xlsx, json, txt, png, wav, …
	Size   int64  `json:"size,omitempty"`
	Source Source `json:"source"` // where it first came from (a reference record: where it came from again)
	// Sources lists every provenance of this content, first first, when
	// identical content arrived from more than one place.
	Sources []Source `json:"sources,omitempty"`
	// DuplicateOf, in a reference record, is the id of the content that
	// arrived again.
	DuplicateOf string   `json:"duplicate_of,omitempty"`
	Preview     *Preview `json:"preview,omitempty"`
}

// Source records where a file came from and under what terms.
type Source struct {
	Kind        string    `json:"kind"` // sample, local, kaggle, arxiv, pybench
	Ref         string    `json:"ref,omitempty"`
	URL         string    `json:"url,omitempty"`
	License     string    `json:"license,omitempty"`
	Version     string    `json:"version,omitempty"`
	Title       string    `json:"title,omitempty"`
	RetrievedAt time.Time `json:"retrieved_at,omitzero"`
}

// Preview is what a query writer needs to see of a file without opening it.
// Only the fields that fit the file's type are set.
type Preview struct {
	Columns    []Column `json:"columns,omitempty"` // tables: name and dtype
	Rows       int      `json:"rows,omitempty"`
	Head       string   `json:"head,omitempty"`      // tables: the first rows as text
	Encoding   string   `json:"encoding,omitempty"`  // text and tables: Python codec name (utf-8, utf-8-sig, utf-16, gbk, cp1252)
	Delimiter  string   `json:"delimiter,omitempty"` // csv, tsv: the field separator
	Read       string   `json:"read,omitempty"`      // csv, tsv, xlsx: pandas' keyword arguments that read the table as meant (encoding='cp1252', sep=';', skiprows=2 …); json: where its table lies and the call that reads it
	Sheets     []string `json:"sheets,omitempty"`
	Text       string   `json:"text,omitempty"` // text, pdf, docx, html: the start
	Pages      int      `json:"pages,omitempty"`
	Width      int      `json:"width,omitempty"` // images
	Height     int      `json:"height,omitempty"`
	Mode       string   `json:"mode,omitempty"`   // images: L, RGB, RGBA, P
	Frames     int      `json:"frames,omitempty"` // gif
	DurationS  float64  `json:"duration_s,omitempty"`
	SampleRate int      `json:"sample_rate,omitempty"`
	Channels   int      `json:"channels,omitempty"`
}

// Column is a table column as a preview shows it.
type Column struct {
	Name  string `json:"name"`
	DType string `json:"dtype"` // int, float, string, date, bool
}
