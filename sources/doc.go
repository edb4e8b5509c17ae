// Package sources finds input files — the built-in corpus, local folders,
// Kaggle, arXiv, PyBench — types them by content and stores them by hash.
//
// A Source yields Items (a name, a body read once, a provenance). Collect
// streams them into a Store, which hashes each body while writing it to a
// temp file, types it by content (Detect, DetectFile: magic numbers, zip
// entries, text sniffing — never the extension), previews it (Preview: a
// table's columns and head, a PDF's first page, an image's size, an audio
// file's duration) and moves it to <root>/<aa>/<sha256>/<name>. Identical
// content is stored once; every provenance is kept (File.Sources). Collect
// applies the per-source rules of Config: a license allow-list (checked
// before a body is read), wanted types and a file count; the Store applies
// the size limit.
//
// The kinds live in subpackages (local, kaggle, arxiv, pybench, sample);
// sources/open makes any of them from a spec and Config; sourcetest is the
// conformance suite they all pass; arrowpreview adds Parquet and Arrow
// previews to programs that import it. Archives are unpacked by EachZip
// and EachTar, which refuse zip-slip paths, absolute paths, links and
// bombs.
package sources
