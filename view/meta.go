package view

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// facet is the distinct values of one index column, numbered in the order
// they first came, with how many rows hold each.
type facet struct {
	values []string
	ids    map[string]int
	counts []int
}

func (s *site) facet(name string) *facet {
	f := s.facets[name]
	if f == nil {
		f = &facet{ids: map[string]int{}}
		s.facets[name] = f
	}
	return f
}

func (f *facet) id(v string) int {
	i, ok := f.ids[v]
	if !ok {
		i = len(f.values)
		f.ids[v] = i
		f.values = append(f.values, v)
		f.counts = append(f.counts, 0)
	}
	f.counts[i]++
	return i
}

// tally counts one input's trajectories as the site writes them.
type tally struct {
	Trajectories, Passed, Failed, Infra, Unverified int
	Failures                                        map[string]int
}

func (t *tally) add(sd *Side) {
	if sd.Missing != "" {
		return
	}
	t.Trajectories++
	switch sd.verdictWord() {
	case VerdictPassed:
		t.Passed++
	case VerdictFailed:
		t.Failed++
		if f := sd.failure(); f != "" {
			if t.Failures == nil {
				t.Failures = map[string]int{}
			}
			t.Failures[f]++
		}
	case VerdictInfra:
		t.Infra++
	default:
		t.Unverified++
	}
}

// Overview is what the index shows of one input above the list: its
// figures and its funnel.
type Overview struct {
	Label   string   `json:"label"`
	Kind    string   `json:"kind"`
	Figures []Figure `json:"figures"`
	Stages  []Stage  `json:"stages,omitempty"`
}

// Figure is one labelled number or word.
type Figure struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// Stage is one step of a funnel: what came in, what went out, and why the
// rest was dropped.
type Stage struct {
	Name    string   `json:"name"`
	In      int64    `json:"in"`
	Out     int64    `json:"out"`
	Reasons []Reason `json:"reasons,omitempty"`
	Note    string   `json:"note,omitempty"` // e.g. the stage's wall time
}

// Reason is how many items one reason dropped.
type Reason struct {
	Reason string `json:"reason"`
	Count  int64  `json:"count"`
}

// siteMeta is data/meta.js: what every page needs first.
type siteMeta struct {
	Title     string                  `json:"title"`
	Kind      string                  `json:"kind"`
	Roots     []siteRoot              `json:"roots"`
	Pages     int                     `json:"pages"`
	Chunks    int                     `json:"chunks"`
	Facets    map[string][]facetValue `json:"facets"`
	Overviews []Overview              `json:"overviews"`
	Written   time.Time               `json:"written"`
	Copy      bool                    `json:"copy"`
}

// siteRoot is an input as pages reach its files: by Rel, a URL path
// relative to the site, from disk; under _in/<index>/ from Serve.
type siteRoot struct {
	Label string `json:"label"`
	Kind  string `json:"kind"`
	Rel   string `json:"rel"`
}

type facetValue struct {
	Value string `json:"v"`
	Count int    `json:"n"`
}

// writeMeta writes data/meta.js, the overviews completed by the tallies.
func (s *site) writeMeta(ov []Overview) error {
	m := siteMeta{Kind: s.inputs[0].kind, Pages: s.n, Chunks: s.chunks, Facets: map[string][]facetValue{},
		Written: time.Now().UTC().Truncate(time.Second), Copy: s.opts.Copy}
	var labels []string
	for _, in := range s.roots {
		rel, err := filepath.Rel(s.out, in.dir)
		if err != nil {
			return fmt.Errorf("view: %w", err)
		}
		m.Roots = append(m.Roots, siteRoot{Label: in.label, Kind: in.kind, Rel: urlPath(rel)})
	}
	for i, in := range s.inputs {
		labels = append(labels, in.label)
		if i < len(ov) {
			ov[i].Figures = append(s.tally[i].figures(), ov[i].Figures...)
		}
	}
	m.Title = strings.Join(labels, " vs ")
	m.Overviews = ov
	for name, f := range s.facets {
		vals := make([]facetValue, len(f.values))
		for i, v := range f.values {
			vals[i] = facetValue{Value: v, Count: f.counts[i]}
		}
		m.Facets[name] = vals
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return writeJSONP(filepath.Join(s.out, "data", "meta.js"), "synthMeta(", b)
}

// figures are the tally's counts as the index shows them.
func (t *tally) figures() []Figure {
	fs := []Figure{{"trajectories", fmt.Sprint(t.Trajectories)}}
	if judged := t.Passed + t.Failed; judged > 0 {
		fs = append(fs, Figure{"passed", fmt.Sprintf("%d (%.1f%%)", t.Passed, 100*float64(t.Passed)/float64(judged))},
			Figure{"failed", fmt.Sprint(t.Failed)})
	}
	if t.Infra > 0 {
		fs = append(fs, Figure{"infrastructure failures", fmt.Sprint(t.Infra)})
	}
	if t.Unverified > 0 {
		fs = append(fs, Figure{"not verified", fmt.Sprint(t.Unverified)})
	}
	var reasons []string
	for r := range t.Failures {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool { return t.Failures[reasons[i]] > t.Failures[reasons[j]] })
	for _, r := range reasons {
		fs = append(fs, Figure{"failed: " + r, fmt.Sprint(t.Failures[r])})
	}
	return fs
}

// urlPath turns a relative file path into a relative URL path, each
// segment escaped.
func urlPath(rel string) string {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i, p := range parts {
		if p != ".." && p != "." {
			parts[i] = url.PathEscape(p)
		}
	}
	return strings.Join(parts, "/")
}
