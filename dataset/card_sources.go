package dataset

import (
	"cmp"
	"iter"
	"slices"

	"synth/schemas"
)

// SourceCounts groups files by source kind and license, for
// CardInfo.Sources: most files first, then by kind and license.
func SourceCounts(files []schemas.File) []SourceCount {
	type key struct{ kind, license string }
	n := map[key]int64{}
	for _, f := range files {
		n[key{f.Source.Kind, f.Source.License}]++
	}
	out := make([]SourceCount, 0, len(n))
	for k, c := range n {
		out = append(out, SourceCount{Kind: k.kind, License: k.license, Files: c})
	}
	slices.SortFunc(out, func(a, b SourceCount) int {
		return cmp.Or(cmp.Compare(b.Files, a.Files), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.License, b.License))
	})
	return out
}

// Languages returns the languages of the tasks' queries, one per task, for
// CardInfo.Languages: each once, most tasks first.
func Languages(langs iter.Seq[string]) []string {
	n := map[string]int{}
	for l := range langs {
		if l != "" {
			n[l]++
		}
	}
	out := make([]string, 0, len(n))
	for l := range n {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(cmp.Compare(n[b], n[a]), cmp.Compare(a, b)) })
	return out
}
