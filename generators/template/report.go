package template

import (
	"fmt"
	"sort"
	"strings"

	"synth/generators"
	"synth/schemas"
)

// Report renders a Markdown summary of tasks: counts per category, per
// category and group, per input file type, per template and per language,
// then every collected file that got no task (untasked), with why.
func Report(tasks []schemas.Task, untasked []generators.Untasked) string {
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
	b.WriteString(ReportUntasked(untasked))
	return b.String()
}

// UntaskedHeading starts Report's last section, ReportUntasked.
const UntaskedHeading = "## Files without a task\n"

// ReportUntasked renders the report's section on the files without a task.
func ReportUntasked(untasked []generators.Untasked) string {
	var b strings.Builder
	b.WriteString(UntaskedHeading + "\n")
	if len(untasked) == 0 {
		b.WriteString("Every collected file has a task.\n")
		return b.String()
	}
	by := map[string]int{}
	for _, u := range untasked {
		by[u.Reason]++
	}
	var reasons []string
	for r, n := range by {
		reasons = append(reasons, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(reasons)
	fmt.Fprintf(&b, "%d collected files got no task (%s).\n\n| file | type | id | why | detail |\n|---|---|---|---|---|\n", len(untasked), strings.Join(reasons, ", "))
	cell := strings.NewReplacer("|", `\|`, "\n", " ")
	for _, u := range untasked {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", cell.Replace(u.File.Name), u.File.Type, u.File.ID[:min(12, len(u.File.ID))], u.Reason, cell.Replace(u.Detail))
	}
	return b.String()
}
