package filters

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown renders the funnel as a Markdown table, one row per stage
// with its in and out counts and its drop reasons, most frequent first.
func (f *Funnel) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| stage | in | out | dropped | reasons |\n|---|---:|---:|---:|---|\n")
	for _, s := range f.Snapshot() {
		var reasons []string
		for _, r := range s.Reasons {
			note := ""
			if r.Infra {
				note = " (infrastructure)"
			}
			reasons = append(reasons, fmt.Sprintf("%s %d%s", mdEscape(r.Reason), r.Count, note))
		}
		if s.Retries > 0 {
			reasons = append(reasons, fmt.Sprintf("retried %d", s.Retries))
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", mdEscape(s.Name), s.In, s.Out, s.In-s.Out, strings.Join(reasons, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
