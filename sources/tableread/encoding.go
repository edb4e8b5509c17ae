package tableread

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

// Text encodings, named as Python's codecs name them so that reference
// code passes them to pandas.read_csv(encoding=...) as they are.
const (
	EncUTF8    = "utf-8"
	EncUTF8BOM = "utf-8-sig"
	EncUTF16   = "utf-16" // with a BOM, either byte order: Python's utf-16 reads the BOM
	EncGBK     = "gbk"
	EncCP932   = "cp932" // Shift-JIS as Windows writes it (Python's shift_jis is a subset)
	EncCP950   = "cp950" // Big5 (traditional Chinese) as Windows writes it
	EncCP1252  = "cp1252"
	EncLatin1  = "latin-1" // bytes cp1252 leaves undefined (0x81, 0x8d, 0x8f, 0x90, 0x9d) occur
)

// SniffEncoding names the encoding of a text head: a BOM decides; valid
// UTF-8 is utf-8; otherwise Shift-JIS (cp932) when the bytes decode as it
// with Japanese kana among the text, GBK when the bytes decode as GBK with mostly CJK
// text, else cp1252, or latin-1 when a byte cp1252 leaves undefined occurs
// (Python's cp1252 refuses those). ok is false when the head looks binary.
// Given the whole file rather than its head, it names the codec that
// decodes all of it.
func SniffEncoding(head []byte) (enc string, ok bool) {
	switch {
	case bytes.HasPrefix(head, []byte{0xef, 0xbb, 0xbf}):
		return EncUTF8BOM, true
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}), bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		return EncUTF16, true
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "", false
	}
	if ValidUTF8Prefix(head) {
		return EncUTF8, LooksPrintable(string(head))
	}
	if shiftJIS(head) {
		return EncCP932, true
	}
	if pairedHighBytes(head) {
		if s, err := simplifiedchinese.GBK.NewDecoder().Bytes(trimPartial(head)); err == nil && cjkShare(string(s)) > 0.1 && utf8.Valid(s) {
			return EncGBK, true
		}
	}
	if big5(head) {
		return EncCP950, true
	}
	if slices.ContainsFunc(head, func(c byte) bool { return c == 0x81 || c == 0x8d || c == 0x8f || c == 0x90 || c == 0x9d }) {
		s, _ := charmap.ISO8859_1.NewDecoder().Bytes(head)
		return EncLatin1, LooksPrintable(string(s))
	}
	s, _ := charmap.Windows1252.NewDecoder().Bytes(head)
	return EncCP1252, LooksPrintable(string(s))
}

// Decoder returns the decoder for a name from SniffEncoding.
func Decoder(enc string) *encoding.Decoder {
	switch enc {
	case EncUTF8BOM:
		return unicode.UTF8BOM.NewDecoder()
	case EncUTF16:
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
	case EncGBK:
		return simplifiedchinese.GBK.NewDecoder()
	case EncCP932:
		return japanese.ShiftJIS.NewDecoder()
	case EncCP950:
		return traditionalchinese.Big5.NewDecoder()
	case EncCP1252:
		return charmap.Windows1252.NewDecoder()
	case EncLatin1:
		return charmap.ISO8859_1.NewDecoder()
	}
	return encoding.Nop.NewDecoder()
}

// DecodeHead decodes a head in enc, dropping a character cut at its end.
func DecodeHead(head []byte, enc string) string {
	if enc == EncUTF8 {
		return string(trimPartialUTF8(head))
	}
	if enc == EncUTF16 {
		head = head[:len(head)&^1]
	}
	s, err := Decoder(enc).Bytes(head)
	if err != nil {
		s, _ = Decoder(enc).Bytes(trimPartial(head))
	}
	return string(trimPartialUTF8(s))
}

// ValidUTF8Prefix reports whether b is valid UTF-8 but for a rune cut at its end.
func ValidUTF8Prefix(b []byte) bool {
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

// pairedHighBytes reports bytes above 0x80 that come in pairs, as GBK's
// Chinese characters do (both bytes from 0xa1 in GB2312's range), rather than
// alone between ASCII letters, as cp1252's accented letters do: nine pairs
// in ten or more.
func pairedHighBytes(b []byte) bool {
	pairs, lone := 0, 0
	for i := 0; i < len(b); i++ {
		if b[i] < 0x81 {
			continue
		}
		if i+1 < len(b) && b[i+1] >= 0x80 {
			pairs++
			i++
		} else if i+1 < len(b) {
			lone++
		}
	}
	return pairs > 0 && lone*10 <= pairs
}

// shiftJIS reports text in Shift-JIS: it decodes as such without an
// invalid byte, and a fifth or more of its characters beyond ASCII are
// hiragana or katakana (U+3040-U+30FF), which Japanese text is full of.
// GBK or cp1252 text read as Shift-JIS gives half-width katakana and
// rare kanji, not these.
func shiftJIS(b []byte) bool {
	s, err := japanese.ShiftJIS.NewDecoder().Bytes(trimPartial(b))
	s = bytes.TrimSuffix(s, []byte("\ufffd")) // a character cut at the head's end
	if err != nil || bytes.ContainsRune(s, utf8.RuneError) {
		return false
	}
	var kana, all int
	for _, r := range string(s) {
		if r > 0x7f {
			all++
			if r >= 0x3040 && r <= 0x30ff {
				kana++
			}
		}
	}
	return all > 0 && kana*5 >= all
}

// big5 reports text in Big5 (traditional Chinese): it decodes whole, its
// characters come in runs of ideographs, as words of Chinese do, and they
// are 2% or more of it. Text
// in cp1252 decodes as Big5 too (é and the letter after it make a pair),
// but into ideographs standing alone between Latin letters.
func big5(head []byte) bool {
	s, err := traditionalchinese.Big5.NewDecoder().Bytes(trimPartial(head))
	if err != nil || !utf8.Valid(s) || strings.ContainsRune(string(s), utf8.RuneError) {
		return false
	}
	cjk, runs, prev, all := 0, 0, false, 0
	for _, r := range string(s) {
		all++
		is := r >= 0x3000 && r <= 0x9fff || r >= 0xff00 && r <= 0xffef
		if is {
			cjk++
			if prev {
				runs++
			}
		}
		prev = is
	}
	// Chinese text is dense with ideographs; a few stray pairs of high
	// bytes in English (mojibake such as \xcc_\xe5\xb1) are not.
	return cjk >= 4 && runs*2 >= cjk && cjk*50 >= all && cjkShare(string(s)) > 0.9
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

// LooksPrintable reports whether text is mostly printable: few control
// characters besides tab, newline and carriage return.
func LooksPrintable(s string) bool {
	var bad, n int
	for _, r := range s {
		n++
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f' || r == utf8.RuneError || r == 0x7f {
			bad++
		}
	}
	return n == 0 || bad*100 < n
}
