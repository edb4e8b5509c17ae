package sources

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// Text encodings Preview reports, named as Python's codecs name them so a
// query can pass them to pandas.read_csv(encoding=...).
const (
	EncUTF8    = "utf-8"
	EncUTF8BOM = "utf-8-sig"
	EncUTF16LE = "utf-16" // with a BOM
	EncUTF16BE = "utf-16-be"
	EncGBK     = "gbk"
	EncLatin1  = "cp1252"
)

// sniffEncoding names the encoding of a text head: a BOM decides; valid
// UTF-8 is utf-8; otherwise GBK when the bytes decode as GBK with mostly CJK
// text, else cp1252. ok is false when the head looks binary.
func sniffEncoding(head []byte) (enc string, ok bool) {
	switch {
	case bytes.HasPrefix(head, []byte{0xef, 0xbb, 0xbf}):
		return EncUTF8BOM, true
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		return EncUTF16LE, true
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		return EncUTF16BE, true
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "", false
	}
	if validUTF8Prefix(head) {
		return EncUTF8, looksPrintable(string(head))
	}
	if s, err := simplifiedchinese.GBK.NewDecoder().Bytes(trimPartial(head)); err == nil && cjkShare(string(s)) > 0.1 && utf8.Valid(s) {
		return EncGBK, true
	}
	s, _ := charmap.Windows1252.NewDecoder().Bytes(head)
	return EncLatin1, looksPrintable(string(s))
}

// decoder returns the decoder for a name from sniffEncoding.
func decoder(enc string) *encoding.Decoder {
	switch enc {
	case EncUTF8BOM:
		return unicode.UTF8BOM.NewDecoder()
	case EncUTF16LE:
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
	case EncUTF16BE:
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
	case EncGBK:
		return simplifiedchinese.GBK.NewDecoder()
	case EncLatin1:
		return charmap.Windows1252.NewDecoder()
	}
	return encoding.Nop.NewDecoder()
}

// decodeHead decodes a head in enc, dropping a character cut at its end.
func decodeHead(head []byte, enc string) string {
	if enc == EncUTF8 {
		return string(trimPartialUTF8(head))
	}
	if enc == EncUTF16LE || enc == EncUTF16BE {
		head = head[:len(head)&^1]
	}
	s, err := decoder(enc).Bytes(head)
	if err != nil {
		s, _ = decoder(enc).Bytes(trimPartial(head))
	}
	return string(trimPartialUTF8(s))
}

// validUTF8Prefix reports whether b is valid UTF-8 but for a rune cut at its end.
func validUTF8Prefix(b []byte) bool {
	return utf8.Valid(trimPartialUTF8(b))
}

func trimPartialUTF8(b []byte) []byte {
	for i := 0; i < 3 && len(b) > 0; i++ {
		r, size := utf8.DecodeLastRune(b)
		if r != utf8.RuneError || size != 1 {
			return b
		}
		if utf8.RuneStart(b[len(b)-1]) || b[len(b)-1]&0xc0 == 0x80 {
			b = b[:len(b)-1]
			continue
		}
		return b
	}
	return b
}

// trimPartial drops a trailing lone high byte (half of a double-byte character).
func trimPartial(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] >= 0x80 {
		i := n - 1
		for i > 0 && b[i-1] >= 0x80 {
			i--
		}
		if (n-i)%2 == 1 {
			return b[:n-1]
		}
	}
	return b
}

func cjkShare(s string) float64 {
	var cjk, all int
	for _, r := range s {
		if r > 0x7f {
			all++
			if r >= 0x3000 && r <= 0x9fff || r >= 0xff00 && r <= 0xffef {
				cjk++
			}
		}
	}
	if all == 0 {
		return 0
	}
	return float64(cjk) / float64(all)
}

// looksPrintable reports whether text is mostly printable: few control
// characters besides tab, newline and carriage return.
func looksPrintable(s string) bool {
	var bad, n int
	for _, r := range s {
		n++
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f' || r == utf8.RuneError || r == 0x7f {
			bad++
		}
	}
	return n == 0 || bad*100 < n
}
