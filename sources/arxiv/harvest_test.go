package arxiv

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/sources"
)

// oaiServer pages ListRecords like arXiv: pageSize records a page in
// arXivRaw, a resumption token until the last page (which carries an
// empty one), noRecordsMatch for an empty range, and the export API for
// id_list. It notes when each request came.
type oaiServer struct {
	t        *testing.T
	total    int
	pageSize int
	mu       sync.Mutex
	times    []time.Time
	verbs    []string
	idLists  []string
	pdfs     []string
}

func (o *oaiServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	defer o.mu.Unlock()
	q := r.URL.Query()
	switch {
	case r.URL.Path == "/oai":
		o.times = append(o.times, time.Now())
		o.verbs = append(o.verbs, q.Get("verb"))
		start := 0
		if tok := q.Get("resumptionToken"); tok != "" {
			start, _ = strconv.Atoi(strings.TrimPrefix(tok, "page-"))
		} else if q.Get("metadataPrefix") != "arXivRaw" || q.Get("from") == "" {
			http.Error(w, "want metadataPrefix=arXivRaw and from", http.StatusBadRequest)
			return
		}
		if q.Get("from") == "2099-01-01" {
			io.WriteString(w, `<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><error code="noRecordsMatch">none</error></OAI-PMH>`)
			return
		}
		io.WriteString(w, o.page(start))
	case r.URL.Path == "/api/query":
		o.idLists = append(o.idLists, q.Get("id_list"))
		ids := strings.Split(q.Get("id_list"), ",")
		var b strings.Builder
		fmt.Fprintf(&b, `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><opensearch:totalResults>%d</opensearch:totalResults>`, len(ids))
		for _, id := range ids {
			if !strings.Contains(id, "v") {
				id += "v3" // the newest version
			}
			month := "01"
			if strings.HasPrefix(id, "2102") {
				month = "02"
			}
			fmt.Fprintf(&b, `<entry><id>http://arxiv.org/abs/%s</id><published>2021-%s-01T00:00:00Z</published><title>Known %s</title><summary>An abstract
  of %s.</summary><author><name>A. B.</name></author><link title="pdf" href="%s/pdf/%s" type="application/pdf"/><arxiv:license xmlns:arxiv="http://arxiv.org/schemas/atom">http://creativecommons.org/licenses/by/4.0/</arxiv:license></entry>`, id, month, id, id, "http://"+r.Host, id)
		}
		b.WriteString("</feed>")
		io.WriteString(w, b.String())
	case strings.HasPrefix(r.URL.Path, "/pdf/"):
		o.pdfs = append(o.pdfs, strings.TrimPrefix(r.URL.Path, "/pdf/"))
		io.WriteString(w, "%PDF-1.4 a paper\n%%EOF\n")
	default:
		http.NotFound(w, r)
	}
}

func (o *oaiServer) page(start int) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>`)
	end := min(start+o.pageSize, o.total)
	for i := start; i < end; i++ {
		status, meta := "", ""
		if i%500 == 499 {
			status = ` status="deleted"`
		} else {
			cat := "cs.CL"
			if i%2 == 1 {
				cat = "math.PR stat.ML"
			}
			meta = fmt.Sprintf(`<metadata><arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/"><id>2401.%05d</id><version version="v1"><date>x</date></version><version version="v2"><date>y</date></version><title>Paper
 %d on tables</title><authors>Ada Lovelace, Alan Turing and Grace Hopper</authors><categories>%s</categories><license>http://creativecommons.org/licenses/by/4.0/</license><abstract>We study %d things.</abstract></arXivRaw></metadata>`, i, i, cat, i)
		}
		fmt.Fprintf(&b, `<record><header%s><identifier>oai:arXiv.org:2401.%05d</identifier></header>%s</record>`, status, i, meta)
	}
	if end < o.total {
		fmt.Fprintf(&b, `<resumptionToken cursor="%d" completeListSize="%d">page-%d</resumptionToken>`, start, o.total, end)
	} else {
		fmt.Fprintf(&b, `<resumptionToken cursor="%d" completeListSize="%d"></resumptionToken>`, start, o.total)
	}
	b.WriteString(`</ListRecords></OAI-PMH>`)
	return b.String()
}

func oaiSource(t *testing.T, o *oaiServer, query string, cfg sources.ArxivConfig, opts Options) (*Source, *bytes.Buffer) {
	t.Helper()
	return sourceAt(t, o, query, cfg, opts)
}

// TestHarvestTenThousandRecords: a 10,000-record harvest pages through
// ListRecords with resumption tokens, one request per 1,000 records,
// each paced as delay_seconds says, with no GetRecord per paper; licenses
// and newest versions come from the records, and deleted ones are left
// out. (How long it takes is measured in docs, not held here.)
func TestHarvestTenThousandRecords(t *testing.T) {
	o := &oaiServer{t: t, total: 10000, pageSize: 1000}
	cache := t.TempDir()
	s, _ := oaiSource(t, o, "", sources.ArxivConfig{From: "2024-01-01", Until: "2024-01-31", MaxResults: 20000, DelaySeconds: 0.05}, Options{CacheDir: cache})
	start := time.Now()
	plan, err := s.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("harvested %d papers in %d requests, %.1fs", len(plan), len(o.verbs), time.Since(start).Seconds())
	if len(plan) != 10000-20 {
		t.Errorf("planned %d papers, want 9980 (10,000 records, 20 deleted)", len(plan))
	}
	if len(o.verbs) != 10 {
		t.Errorf("%d OAI requests %v, want 10 ListRecords pages", len(o.verbs), o.verbs)
	}
	for _, v := range o.verbs {
		if v != "ListRecords" {
			t.Errorf("verb %s: a harvest asks ListRecords only", v)
		}
	}
	// The server sees when a request arrives, not when it was sent: a
	// busy machine delays one arrival and shortens the next gap. Over the
	// whole harvest the spacing still adds up to delay_seconds a request.
	if n := len(o.times); n > 1 {
		if span := o.times[n-1].Sub(o.times[0]); span < time.Duration(n-1)*45*time.Millisecond {
			t.Errorf("%d requests came within %v, want them at least delay_seconds (50ms) apart: %v in all", n, span, time.Duration(n-1)*50*time.Millisecond)
		}
	}
	p := plan[0].Source
	if p.Ref != "2401.00000v2" || p.Version != "2" || p.License != "CC-BY-4.0" || !strings.Contains(p.Title, "Ada Lovelace, Alan Turing, Grace Hopper") {
		t.Errorf("first paper = %+v", p)
	}
	if len(s.licenses) < 9980 {
		t.Errorf("license cache holds %d ids, want every harvested one", len(s.licenses))
	}
}

func TestHarvestFiltersAndEmptyRange(t *testing.T) {
	o := &oaiServer{t: t, total: 40, pageSize: 15}
	s, _ := oaiSource(t, o, "paper 13", sources.ArxivConfig{From: "2024-01-01", Categories: []string{"stat.ML"}, MaxResults: 100, DelaySeconds: 0.01}, Options{})
	plan, err := s.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, p := range plan {
		refs = append(refs, p.Source.Ref)
	}
	if strings.Join(refs, " ") != "2401.00013v2" {
		t.Errorf("kept %v, want paper 13 alone (its words as words, in stat.ML)", refs)
	}
	s, _ = oaiSource(t, o, "tables", sources.ArxivConfig{From: "2024-01-01", Categories: []string{"stat.ML"}, MaxResults: 100, DelaySeconds: 0.01}, Options{})
	if plan, _ := s.Plan(context.Background()); len(plan) != 20 {
		t.Errorf("%d papers on tables in stat.ML, want the 20 odd ones", len(plan))
	}
	s, _ = oaiSource(t, o, "", sources.ArxivConfig{From: "2099-01-01", DelaySeconds: 0.01}, Options{})
	if plan, err := s.Plan(context.Background()); err != nil || len(plan) != 0 {
		t.Errorf("an empty range: %d papers, %v", len(plan), err)
	}
	for _, bad := range []sources.ArxivConfig{{From: "2024-13-01"}, {Until: "2024-01-01"}, {From: "2024-02-01", Until: "2024-01-01"}} {
		if _, err := New("", Options{Config: bad}); err == nil {
			t.Errorf("New accepted %+v", bad)
		}
	}
}

// TestKnownPapersByID: a spec of identifiers asks the export API's id_list
// (pinned versions as written), searches nothing, and keeps abstracts as
// text when asked.
func TestKnownPapersByID(t *testing.T) {
	o := &oaiServer{t: t}
	s, _ := oaiSource(t, o, "arXiv:2101.00001v2, 2102.00002", sources.ArxivConfig{Abstracts: true}, Options{})
	s.setDelay(0)
	items, _ := collect(t, s)
	if len(o.idLists) != 1 || o.idLists[0] != "2101.00001v2,2102.00002" {
		t.Errorf("id_list asked = %q", o.idLists)
	}
	var names []string
	for _, it := range items {
		names = append(names, it.Name+"@"+it.Source.Version)
	}
	want := "2101.00001v2.pdf@2 2101.00001v2.abstract.txt@2 2102.00002v3.pdf@3 2102.00002v3.abstract.txt@3"
	if strings.Join(names, " ") != want {
		t.Errorf("collected %v, want %s", names, want)
	}
	if len(o.pdfs) != 2 || o.pdfs[0] != "2101.00001v2" {
		t.Errorf("PDFs fetched = %v, want the pinned version first", o.pdfs)
	}
	if _, err := New("", Options{Config: sources.ArxivConfig{IDs: []string{"not-an-id"}}}); err == nil || !strings.Contains(err.Error(), "sources.arxiv.ids") {
		t.Errorf("a bad id in sources.arxiv.ids: %v", err)
	}
}

// TestSinceSkipsOlderPapers: with Since, a paper first published before
// it is left out (the export API gives each entry's published date).
func TestSinceSkipsOlderPapers(t *testing.T) {
	o := &oaiServer{t: t}
	s, _ := oaiSource(t, o, "2101.00001v2,2102.00002", sources.ArxivConfig{}, Options{Since: time.Date(2021, 1, 15, 0, 0, 0, 0, time.UTC)})
	s.setDelay(0)
	plan, err := s.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 1 || plan[0].Source.Ref != "2102.00002v3" {
		t.Errorf("planned %+v, want 2102.00002v3 alone", plan)
	}
}
