package serve

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// What a client sends is hostile: the guards on the strings it names.

// idPattern is what a client's episode_id must match: letters, digits and
// ._:- only, starting with a letter or digit, at most 128 bytes. Paths are
// never made of ids; the pattern keeps them out of paths, log lines and
// terminals all the same.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)

// checkID refuses an episode_id a client chose that is not of idPattern.
func checkID(id string) error {
	if !idPattern.MatchString(id) {
		return errorf(400, codeValidation, "reset: episode_id %.80q is not an id: use 1 to 128 letters, digits, '.', '_', ':' or '-', starting with a letter or digit; or send none and the server gives one", id)
	}
	return nil
}

// oneLine escapes every control and line-breaking character of s (newlines,
// carriage returns, escape sequences, U+2028) as Go would quote it, so s
// stays one inert line of a log.
func oneLine(s string) string {
	if strings.IndexFunc(s, unsafeRune) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unsafeRune(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == unicode.ReplacementChar
}
