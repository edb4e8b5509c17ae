package sources

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxNameBytes keeps a stored name well under file systems' 255-byte limit.
const maxNameBytes = 200

// SanitizeName turns a name a source gives into a safe base name: the last
// path element (either slash), no leading dots, no control characters, at
// most 200 bytes (the extension kept), and "file" when nothing is left.
func SanitizeName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(strings.TrimLeft(name, ". "))
	if len(name) > maxNameBytes {
		ext := ""
		if i := strings.LastIndexByte(name, '.'); i > 0 && len(name)-i <= 16 {
			ext = name[i:]
		}
		cut := maxNameBytes - len(ext)
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = name[:cut] + ext
	}
	if name == "" {
		return "file"
	}
	return name
}
