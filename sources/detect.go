package sources

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

// HeadSize is how much of a file Detect wants to see. Less works; a zip's
// entries and a text file's structure are judged on what is there.
const HeadSize = 64 << 10

// Type names that are not a file format.
const (
	TypeEmpty   = "empty" // zero bytes
	TypeUnknown = "bin"   // content not recognised
)

// Detect returns a file's type from its first bytes (up to HeadSize), by
// magic numbers and structure, never by extension: the name is only used to
// choose between formats that share a container and cannot be told apart
// from the head alone (it is otherwise ignored, so a lying extension does
// not matter). A zip is told apart as xlsx, docx, pptx or zip by the entry
// names found in the head's local headers; DetectFile reads the zip's
// central directory instead and is exact. Text is sniffed for json, jsonl,
// html, xml, svg, csv, tsv, md and txt, after decoding a UTF-16 BOM.
func Detect(head []byte, name string) string {
	if len(head) == 0 {
		return TypeEmpty
	}
	if t := detectMagic(head); t != "" {
		if t == "zip" {
			return zipKind(localEntryNames(head))
		}
		if t == "ole" {
			return oleKind(head)
		}
		return t
	}
	t := detectText(head)
	if t == "txt" && singleColumn(head, name) {
		return "csv"
	}
	return t
}

// singleColumn reports a one-column table, which content alone cannot tell
// from text: the name must say csv, and every line be one short token.
func singleColumn(head []byte, name string) bool {
	if !strings.EqualFold(path.Ext(name), ".csv") {
		return false
	}
	enc, _ := sniffEncoding(head)
	lines := completeLines(decodeHead(head, enc), 50)
	if len(lines) < 2 {
		return false
	}
	for _, l := range lines {
		if len(l) > 64 || len(strings.Fields(l)) > 1 {
			return false
		}
	}
	return true
}

// DetectFile detects the type of the file at path: Detect on its head,
// then, for a zip, the names in its central directory.
func DetectFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, HeadSize)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", fmt.Errorf("detect %s: %w", path, err)
	}
	head = head[:n]
	t := Detect(head, path)
	if t == "ole" {
		return oleKindFile(f), nil
	}
	if detectMagic(head) == "zip" {
		st, err := f.Stat()
		if err != nil {
			return "", err
		}
		zr, err := zip.NewReader(f, st.Size())
		if err != nil {
			return t, nil // a truncated or odd zip: keep the head's verdict
		}
		names := make([]string, 0, len(zr.File))
		for _, e := range zr.File {
			names = append(names, e.Name)
		}
		return zipKind(names), nil
	}
	return t, nil
}

func detectMagic(b []byte) string {
	has := func(off int, magic string) bool {
		return len(b) >= off+len(magic) && string(b[off:off+len(magic)]) == magic
	}
	switch {
	case has(0, "%PDF-"):
		return "pdf"
	case has(0, "\x89PNG\r\n\x1a\n"):
		return "png"
	case has(0, "\xff\xd8\xff"):
		return "jpeg"
	case has(0, "GIF87a"), has(0, "GIF89a"):
		return "gif"
	case has(0, "RIFF") && has(8, "WEBP"):
		return "webp"
	case has(0, "RIFF") && has(8, "WAVE"), has(0, "RIFX") && has(8, "WAVE"):
		return "wav"
	case has(0, "RIFF") && has(8, "AVI "):
		return "avi"
	case has(0, "fLaC"):
		return "flac"
	case has(0, "OggS"):
		return "ogg"
	case has(0, "ID3"):
		return "mp3"
	case has(4, "ftyp"):
		return mp4Kind(b)
	case has(0, "PAR1"):
		return "parquet"
	case has(0, "ARROW1"):
		return "arrow"
	case has(0, "PK\x03\x04"), has(0, "PK\x05\x06"):
		return "zip"
	case has(0, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
		return "ole"
	case has(0, "\x1f\x8b"):
		return "gz"
	case has(0, "BZh"):
		return "bz2"
	case has(0, "\xfd7zXZ\x00"):
		return "xz"
	case has(0, "7z\xbc\xaf\x27\x1c"):
		return "7z"
	case has(257, "ustar"):
		return "tar"
	case has(0, "SQLite format 3\x00"):
		return "sqlite"
	case has(0, "\x93NUMPY"):
		return "npy"
	case has(0, "\x89HDF\r\n\x1a\n"):
		return "hdf5"
	case has(0, "BM") && len(b) >= 26 && binary.LittleEndian.Uint32(b[14:]) >= 12 && binary.LittleEndian.Uint32(b[14:]) <= 124:
		return "bmp"
	case has(0, "II*\x00"), has(0, "MM\x00*"):
		return "tiff"
	case has(0, "\x00\x00\x01\x00") && len(b) >= 6 && b[4] > 0:
		return "ico"
	case len(b) >= 2 && b[0] == 0x80 && b[1] >= 2 && b[1] <= 5:
		return "pkl"
	case has(0, "\xff\xfe"), has(0, "\xfe\xff"):
		return "" // a UTF-16 byte order mark, not a frame sync
	case isMP3Frame(b):
		return "mp3"
	}
	return ""
}

func mp4Kind(b []byte) string {
	if len(b) < 12 {
		return "mp4"
	}
	switch strings.TrimSpace(string(b[8:12])) {
	case "M4A", "M4B":
		return "m4a"
	case "qt":
		return "mov"
	case "heic", "heix", "mif1":
		return "heic"
	case "avif":
		return "avif"
	}
	return "mp4"
}

// isMP3Frame reports whether b starts with an MPEG audio frame header
// followed, where the head allows, by a second one where the first says.
func isMP3Frame(b []byte) bool {
	h, ok := parseMP3Header(b)
	if !ok {
		return false
	}
	if h.frameLen <= 0 || h.frameLen+4 > len(b) {
		return h.frameLen == len(b) // a single whole frame
	}
	_, ok = parseMP3Header(b[h.frameLen:])
	return ok
}

// zipKind tells an Office file from a zip by its entry names, however a
// writer spelled them (a leading slash, backslashes, capitals) and whatever
// optional parts (docProps) it left out: the folder of the main part, or,
// in a package that keeps its parts elsewhere, their file names.
func zipKind(names []string) string {
	kind := "zip"
	for _, n := range names {
		n = strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(n, "\\", "/"), "/"))
		switch {
		case strings.HasPrefix(n, "xl/"), path.Base(n) == "workbook.xml":
			return "xlsx"
		case strings.HasPrefix(n, "word/"), path.Base(n) == "document.xml" && !strings.Contains(n, "/"):
			return "docx"
		case strings.HasPrefix(n, "ppt/"), path.Base(n) == "presentation.xml":
			return "pptx"
		}
	}
	return kind
}

// localEntryNames lists the entry names of the zip local headers that lie
// wholly in head, in order.
func localEntryNames(head []byte) []string {
	var names []string
	for off := 0; off+30 <= len(head); {
		if string(head[off:off+4]) != "PK\x03\x04" {
			break
		}
		flags := binary.LittleEndian.Uint16(head[off+6:])
		csize := int(binary.LittleEndian.Uint32(head[off+18:]))
		nlen := int(binary.LittleEndian.Uint16(head[off+26:]))
		xlen := int(binary.LittleEndian.Uint16(head[off+28:]))
		if off+30+nlen > len(head) {
			break
		}
		names = append(names, string(head[off+30:off+30+nlen]))
		if flags&0x8 != 0 {
			// Sizes follow the data: find the next header by scanning.
			next := bytes.Index(head[off+30+nlen:], []byte("PK\x03\x04"))
			if next < 0 {
				break
			}
			off += 30 + nlen + next
			continue
		}
		off += 30 + nlen + xlen + csize
	}
	return names
}

// oleKind tells an OLE2 compound file's application by its stream names,
// which are UTF-16LE in the directory sectors.
func oleKind(head []byte) string {
	u16 := func(s string) []byte {
		out := make([]byte, 0, 2*len(s))
		for _, c := range []byte(s) {
			out = append(out, c, 0)
		}
		return out
	}
	switch {
	case bytes.Contains(head, u16("Workbook")), bytes.Contains(head, u16("Book")):
		return "xls"
	case bytes.Contains(head, u16("WordDocument")):
		return "doc"
	case bytes.Contains(head, u16("PowerPoint Document")):
		return "ppt"
	}
	return "ole"
}

// oleKindFile scans an OLE2 file's sectors (up to 64 MiB) for the stream
// names that tell its application, since the directory need not be in the head.
func oleKindFile(f io.ReaderAt) string {
	buf := make([]byte, HeadSize+64)
	for off := int64(0); off < 64<<20; off += HeadSize {
		n, err := f.ReadAt(buf, off)
		if k := oleKind(buf[:n]); k != "ole" {
			return k
		}
		if err != nil {
			break
		}
	}
	return "ole"
}
