package sources

import (
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"synth/sources/tableread"
)

// detectText classifies a head that has no known magic number.
func detectText(head []byte) string {
	enc, ok := sniffEncoding(head)
	if !ok {
		return TypeUnknown
	}
	s := decodeHead(head, enc)
	t := strings.TrimLeft(s, " \t\r\n\ufeff")
	if t == "" {
		return "txt"
	}
	lower := strings.ToLower(t[:min(len(t), 1024)])
	switch {
	case (t[0] == '{' || t[0] == '[') && isJSONPrefix(t, len(s) < len(head) || len(head) >= HeadSize):
		if t[0] == '{' && isJSONLines(t) {
			return "jsonl"
		}
		return "json"
	case strings.HasPrefix(lower, "<!doctype html"), strings.HasPrefix(lower, "<html"),
		strings.HasPrefix(lower, "<") && (strings.Contains(lower, "<body") || strings.Contains(lower, "<head")):
		return "html"
	case strings.HasPrefix(lower, "<svg"), strings.HasPrefix(lower, "<?xml") && strings.Contains(lower, "<svg"):
		return "svg"
	case strings.HasPrefix(lower, "<?xml"):
		return "xml"
	}
	if tb, ok := tableread.SniffDelimited(head); ok {
		if tb.Layout.Sep == "\t" {
			return "tsv"
		}
		return "csv"
	}
	if looksMarkdown(s) {
		return "md"
	}
	return "txt"
}

// isJSONPrefix reports whether s is JSON, or, when cut is set (the head
// stops before the file does), a prefix of JSON with no syntax error.
func isJSONPrefix(s string, cut bool) bool {
	dec := json.NewDecoder(strings.NewReader(s))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return true
		}
		if err != nil {
			if cut && (err == io.ErrUnexpectedEOF || strings.Contains(err.Error(), "unexpected EOF")) {
				return true
			}
			// A second top-level value (JSON lines) is a decoder error only
			// in some forms; Token accepts a stream of values.
			return false
		}
	}
}

// isJSONLines reports whether the first lines of s are each a JSON object.
func isJSONLines(s string) bool {
	lines := strings.Split(s, "\n")
	if len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last may be cut
	}
	n := 0
	for _, l := range lines[:min(len(lines), 20)] {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if !strings.HasPrefix(l, "{") || !json.Valid([]byte(l)) {
			return false
		}
		n++
	}
	return n >= 2
}

// completeLines returns up to n non-empty lines of s, leaving out a last
// line that is not terminated (it may be cut) when there are others.
func completeLines(s string, n int) []string {
	all := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if len(all) > 1 && !strings.HasSuffix(s, "\n") {
		all = all[:len(all)-1]
	}
	var out []string
	for _, l := range all {
		if strings.TrimSpace(l) == "" {
			continue
		}
		out = append(out, l)
		if len(out) == n {
			break
		}
	}
	return out
}

var mdPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?m)^#{1,6} \S`),
	regexp.MustCompile("(?m)^```"),
	regexp.MustCompile(`(?m)^\s*[-*+] \S`),
	regexp.MustCompile(`(?m)^\s*\d+\. \S`),
	regexp.MustCompile(`\[[^\]\n]+\]\([^)\s]+\)`),
	regexp.MustCompile(`(?m)^\|.*\|\s*$`),
	regexp.MustCompile(`(?m)^\s*\|?\s*:?-{3,}:?\s*\|`),
	regexp.MustCompile(`\*\*[^*\n]+\*\*`),
	regexp.MustCompile(`(?m)^> \S`),
}

// looksMarkdown scores Markdown constructs: two different kinds make it md.
func looksMarkdown(s string) bool {
	s = s[:min(len(s), 16<<10)]
	kinds := 0
	for _, re := range mdPatterns {
		if re.MatchString(s) {
			kinds++
		}
	}
	return kinds >= 2
}
