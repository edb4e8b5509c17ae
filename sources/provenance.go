package sources

import "synth/schemas"

// LicenseCounts counts files by license (NormalizeLicense'd; "unknown" for
// none), for the dataset card. A file that arrived under several licenses
// counts once under each distinct one.
func LicenseCounts(files []schemas.File) map[string]int {
	out := map[string]int{}
	for _, f := range files {
		seen := map[string]bool{}
		srcs := f.Sources
		if len(srcs) == 0 {
			srcs = []schemas.Source{f.Source}
		}
		for _, s := range srcs {
			id := NormalizeLicense(s.License)
			if id == "" {
				id = "unknown"
			}
			if !seen[id] {
				seen[id] = true
				out[id]++
			}
		}
	}
	return out
}
