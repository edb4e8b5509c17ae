package arxiv

import (
	"strings"
)

// idList reads a query made of arXiv identifiers alone (2101.00001,
// 2101.00001v2, hep-ex/0307015, each maybe written arXiv:ID), separated by
// commas or spaces; ok is false for a search query.
func idList(query string) (ids []string, ok bool) {
	fields := strings.FieldsFunc(query, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
	for _, f := range fields {
		id := strings.TrimPrefix(strings.TrimPrefix(f, "arXiv:"), "arxiv:")
		if !idPattern.MatchString(id) {
			return nil, false
		}
		ids = append(ids, id)
	}
	return ids, len(ids) > 0
}
