package template

import (
	"fmt"
	"sort"
	"strings"

	"synth/schemas"
)

// Report renders a Markdown summary of tasks: counts per category, per
// category and group, per input file type, per template and per language.
func Report(tasks []schemas.Task) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Tasks\n\n%d tasks.\n\n", len(tasks))
	cat := map[string]int{}
	group := map[string]int{}
	ftype := map[string]int{}
	gen := map[string]int{}
	lang := map[string]int{}
	for _, t := range tasks {
		cat[t.Category]++
		group[t.Category+" / "+t.Subcategory]++
		gen[t.Generator]++
		lang[t.Lang]++
		if len(t.Files) == 0 {
			ftype["(no file)"]++
		}
		seen := map[string]bool{}
		for _, f := range t.Files {
			if !seen[f.Type] {
				ftype[f.Type]++
				seen[f.Type] = true
			}
		}
	}
	section := func(title, col string, m map[string]int, order []string) {
		fmt.Fprintf(&b, "## %s\n\n| %s | tasks |\n|---|---:|\n", title, col)
		keys := order
		if keys == nil {
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
		}
		for _, k := range keys {
			fmt.Fprintf(&b, "| %s | %d |\n", k, m[k])
		}
		b.WriteString("\n")
	}
	section("Per category", "category", cat, schemas.Categories)
	section("Per category and group", "category / group", group, nil)
	section("Per input file type", "file type", ftype, nil)
	section("Per language", "lang", lang, nil)
	section("Per template", "template", gen, nil)
	return b.String()
}
