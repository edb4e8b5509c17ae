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

// ReportUntasked renders the report's section on the files without a task:
// the collected files no task reads, then the files the collection left
// out (an Untasked without a File.ID: unreadable, too large, a type or
// license not wanted), each with why.
func ReportUntasked(untasked []generators.Untasked) string {
	var collected, left []generators.Untasked
	for _, u := range untasked {
		if u.File.ID == "" {
			left = append(left, u)
		} else {
			collected = append(collected, u)
		}
	}
	var b strings.Builder
	b.WriteString(UntaskedHeading + "\n")
	cell := strings.NewReplacer("|", `\|`, "\n", " ")
	if len(collected) == 0 {
		b.WriteString("Every collected file has a task.\n")
	} else {
		fmt.Fprintf(&b, "%d collected files got no task (%s).\n\n| file | type | id | why | detail |\n|---|---|---|---|---|\n", len(collected), reasonCounts(collected))
		for _, u := range collected {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", cell.Replace(u.File.Name), u.File.Type, u.File.ID[:min(12, len(u.File.ID))], u.Reason, cell.Replace(u.Detail))
		}
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, "\n%d files were not collected (%s).\n\n| file | why | detail |\n|---|---|---|\n", len(left), reasonCounts(left))
		for _, u := range left {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", cell.Replace(u.File.Name), u.Reason, cell.Replace(u.Detail))
		}
	}
	return b.String()
}

// reasonCounts is "reason n, …" over us, sorted by reason.
func reasonCounts(us []generators.Untasked) string {
	by := map[string]int{}
	for _, u := range us {
		by[u.Reason]++
	}
	var reasons []string
	for r, n := range by {
		reasons = append(reasons, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(reasons)
	return strings.Join(reasons, ", ")
}
