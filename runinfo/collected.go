package runinfo

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Collected is one file a network source (Kaggle, arXiv) collected, as
// run.json keeps it: the exact version of its dataset or paper and its
// bytes' sha256, enough to collect the same bytes again (PinnedSpecs) and
// to tell when they changed (CheckCollected).
type Collected struct {
	Kind    string `json:"kind"`              // kaggle or arxiv
	Ref     string `json:"ref"`               // owner/slug/path, competition/slug/path, or id+version[/file]
	Version string `json:"version,omitempty"` // the dataset's or paper's version, as the source recorded it
	SHA256  string `json:"sha256"`
}

// paperRef is the paper's id and version at the start of an arXiv ref
// (2101.00001v2, hep-ex/0307015v1, maybe followed by /FILE).
var paperRef = regexp.MustCompile(`^(.+?v\d+)(?:/|$)`)

// key is what two collections of one file share.
func (c Collected) key() string { return c.Kind + ":" + c.Ref }

// PinnedSpecs returns the --source specs that collect exactly the datasets
// and papers of c at their recorded versions: kaggle:OWNER/DATASET@N for
// each dataset, one arxiv: spec listing every paper as IDvN. A competition
// has no versions to pin; it is named in unpinned, as is a dataset or
// paper recorded without a version.
func PinnedSpecs(c []Collected) (specs, unpinned []string) {
	var papers []string
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		if !seen[s] {
			seen[s] = true
			*list = append(*list, s)
		}
	}
	for _, f := range c {
		switch f.Kind {
		case "kaggle":
			parts := strings.SplitN(f.Ref, "/", 3)
			if len(parts) < 2 {
				continue
			}
			ds := parts[0] + "/" + parts[1]
			if parts[0] == "competition" || f.Version == "" {
				add(&unpinned, "kaggle:"+ds)
				continue
			}
			add(&specs, "kaggle:"+ds+"@"+f.Version)
		case "arxiv":
			m := paperRef.FindStringSubmatch(f.Ref)
			if m == nil {
				add(&unpinned, "arxiv:"+f.Ref)
				continue
			}
			id := m[1]
			if !seen["arxiv:"+id] {
				seen["arxiv:"+id] = true
				papers = append(papers, id)
			}
		}
	}
	if len(papers) > 0 {
		specs = append(specs, "arxiv:"+strings.Join(papers, ","))
	}
	return specs, unpinned
}

// CheckCollected compares what a collection got with what an earlier run
// recorded: nil when every recorded file came again with the same bytes,
// else an error naming each file whose bytes changed and each that did not
// come at all.
func CheckCollected(want, got []Collected) error {
	have := map[string]string{}
	for _, g := range got {
		have[g.key()] = g.SHA256
	}
	var changed, missing []string
	for _, w := range want {
		sum, ok := have[w.key()]
		switch {
		case !ok:
			missing = append(missing, w.key())
		case sum != w.SHA256:
			changed = append(changed, fmt.Sprintf("%s (sha256 %.12s… was %.12s…)", w.key(), sum, w.SHA256))
		}
	}
	if len(changed) == 0 && len(missing) == 0 {
		return nil
	}
	slices.Sort(changed)
	slices.Sort(missing)
	var b strings.Builder
	b.WriteString("the pinned sources did not collect the recorded bytes:")
	for _, c := range changed {
		b.WriteString("\n  changed: " + c)
	}
	for _, m := range missing {
		b.WriteString("\n  missing: " + m)
	}
	return fmt.Errorf("%s", b.String())
}
