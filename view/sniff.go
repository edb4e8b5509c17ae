package view

import (
	"bytes"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"
)

// How a page shows a file (Media.Show).
const (
	ShowImage = "image" // <img>
	ShowAudio = "audio" // <audio controls>
	ShowVideo = "video" // <video controls>
	ShowTable = "table" // rows read here from CSV, TSV or XLSX
	ShowHTML  = "html"  // <iframe sandbox srcdoc>, scripts off
	ShowText  = "text"  // the start of the text
	ShowNone  = "none"  // a link or nothing
)

// kindOf tells a file's type from its first bytes and, for the types whose
// bytes do not say, its name: png, jpeg, gif, webp, bmp, svg, wav, mp3, ogg,
// flac, mp4, webm, pdf, xlsx, zip, csv, tsv, html, json, text or binary.
// The name is the rollout's and only picks among renderers that are safe
// for any content.
func kindOf(head []byte, name string) string {
	ext := strings.ToLower(path.Ext(name))
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return "jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "gif"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "webp"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WAVE":
		return "wav"
	case bytes.HasPrefix(head, []byte("BM")) && ext == ".bmp":
		return "bmp"
	case bytes.HasPrefix(head, []byte("ID3")), len(head) > 1 && head[0] == 0xff && head[1]&0xe0 == 0xe0 && ext == ".mp3":
		return "mp3"
	case bytes.HasPrefix(head, []byte("OggS")):
		return "ogg"
	case bytes.HasPrefix(head, []byte("fLaC")):
		return "flac"
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		return "mp4"
	case bytes.HasPrefix(head, []byte("\x1a\x45\xdf\xa3")):
		return "webm"
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return "pdf"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		if ext == ".xlsx" || ext == ".xlsm" {
			return "xlsx"
		}
		return "zip"
	}
	if !looksText(head) {
		return "binary"
	}
	if isSVG(head) {
		return "svg"
	}
	switch ext {
	case ".csv":
		return "csv"
	case ".tsv":
		return "tsv"
	case ".html", ".htm":
		return "html"
	case ".json":
		return "json"
	}
	if strings.HasPrefix(http.DetectContentType(head), "text/html") {
		return "html"
	}
	return "text"
}

// looksText says whether head is text: valid UTF-8 (a rune cut at the end
// allowed) or another 8-bit encoding, without NUL bytes.
func looksText(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return bytes.HasPrefix(head, []byte("\xff\xfe")) || bytes.HasPrefix(head, []byte("\xfe\xff"))
	}
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n == 1 && len(head) > 3 {
			return !bytes.ContainsAny(head, "\x01\x02\x03\x04\x05\x06\x07\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1c\x1d\x1e\x1f")
		}
		head = head[n:]
	}
	return true
}

func isSVG(head []byte) bool {
	h := bytes.ToLower(head)
	i := bytes.Index(h, []byte("<svg"))
	return i >= 0 && !bytes.Contains(h[:i], []byte("<html"))
}

// showOf is how a page shows a file of a kind.
func showOf(kind string) string {
	switch kind {
	case "png", "jpeg", "gif", "webp", "bmp", "svg":
		return ShowImage
	case "wav", "mp3", "ogg", "flac":
		return ShowAudio
	case "mp4", "webm":
		return ShowVideo
	case "csv", "tsv", "xlsx":
		return ShowTable
	case "html":
		return ShowHTML
	case "json", "text":
		return ShowText
	}
	return ShowNone
}

// safeExt is the extension a copied file gets: one that makes browsers
// treat it as the media it is, and never as a page or a script. Kinds that
// a browser could run (html, svg) or that are unknown get none.
func safeExt(kind string) string {
	switch kind {
	case "png", "gif", "webp", "bmp", "wav", "mp3", "ogg", "flac", "mp4", "webm", "csv", "tsv", "xlsx", "json", "pdf", "zip":
		return "." + kind
	case "jpeg":
		return ".jpg"
	case "text":
		return ".txt"
	}
	return ""
}

// mimeOf is the Content-Type Serve gives a file of a kind: media as itself,
// everything else as plain text or bytes.
func mimeOf(kind string) string {
	switch kind {
	case "png", "gif", "webp", "bmp", "jpeg":
		return "image/" + kind
	case "wav", "ogg", "flac", "webm":
		if kind == "webm" {
			return "video/webm"
		}
		return "audio/" + kind
	case "mp3":
		return "audio/mpeg"
	case "mp4":
		return "video/mp4"
	case "csv", "tsv", "json", "text", "html", "svg":
		return "text/plain; charset=utf-8"
	}
	return "application/octet-stream"
}

// extType is the file type a name's extension suggests, for task files
// that carry no type.
func extType(name string) string {
	return strings.TrimPrefix(strings.ToLower(path.Ext(name)), ".")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
