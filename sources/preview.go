package sources

import (
	"fmt"
	"sync"

	"synth/schemas"
)

// Previewer previews one type of file at a host path.
type Previewer func(path string) (*schemas.Preview, error)

var (
	previewMu  sync.RWMutex
	previewers = map[string]Previewer{}
)

// RegisterPreviewer makes Preview use p for files of type typ. Packages that
// link heavy readers (sources/arrowpreview for parquet and arrow) register
// themselves from init, so only a program that imports them links them.
func RegisterPreviewer(typ string, p Previewer) {
	previewMu.Lock()
	defer previewMu.Unlock()
	previewers[typ] = p
}

// Preview describes the file at path, of type typ (as Detect names it), for
// a query writer: tables give their columns with dtypes, row count and
// first rows; xlsx its sheets; text, json, html, docx and pdf their start
// (pdf: the first page, and the page count); images their size and mode;
// audio its duration, sample rate and channels. A type with nothing to show
// gives (nil, nil). An error means the content is unreadable as typ.
func Preview(path, typ string) (p *schemas.Preview, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("preview %s: %v", typ, r)
		}
	}()
	previewMu.RLock()
	fn := previewers[typ]
	previewMu.RUnlock()
	if fn == nil {
		fn = builtinPreviewers[typ]
	}
	if fn == nil {
		return nil, nil
	}
	return fn(path)
}

var builtinPreviewers map[string]Previewer

func init() {
	builtinPreviewers = map[string]Previewer{
		"csv":   previewTable,
		"tsv":   previewTable,
		"xlsx":  previewXLSX,
		"xls":   previewXLS,
		"txt":   previewText,
		"md":    previewText,
		"json":  previewJSON,
		"jsonl": previewJSONLines,
		"xml":   previewText,
		"svg":   previewText,
		"html":  previewHTML,
		"docx":  previewDOCX,
		"pdf":   previewPDF,
		"png":   previewImage,
		"jpeg":  previewImage,
		"gif":   previewImage,
		"webp":  previewWebP,
		"bmp":   previewBMP,
		"wav":   previewWAV,
		"mp3":   previewMP3,
		"flac":  previewFLAC,
		"mp4":   previewMP4,
		"m4a":   previewMP4,
		"mov":   previewMP4,
	}
}
