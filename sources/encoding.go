package sources

import (
	"golang.org/x/text/encoding"

	"synth/sources/tableread"
)

// Text encodings Preview reports, as Python's codecs name them; package
// tableread sniffs them.
const (
	EncUTF8    = tableread.EncUTF8
	EncUTF8BOM = tableread.EncUTF8BOM
	EncUTF16   = tableread.EncUTF16
	EncGBK     = tableread.EncGBK
	EncCP1252  = tableread.EncCP1252
	EncLatin1  = tableread.EncLatin1
)

func sniffEncoding(head []byte) (string, bool)  { return tableread.SniffEncoding(head) }
func decoder(enc string) *encoding.Decoder      { return tableread.Decoder(enc) }
func decodeHead(head []byte, enc string) string { return tableread.DecodeHead(head, enc) }
func validUTF8Prefix(b []byte) bool             { return tableread.ValidUTF8Prefix(b) }
func looksPrintable(s string) bool              { return tableread.LooksPrintable(s) }
