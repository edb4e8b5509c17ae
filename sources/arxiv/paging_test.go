package arxiv

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"synth/sources"
)

// pagedArxiv plays the export API over a result set of total papers,
// answering the page at emptyAt with no entries emptyTimes times, and
// OAI-PMH GetRecord (oaiStatus, if set, for every record).
type pagedArxiv struct {
	t          *testing.T
	total      int
	emptyAt    int
	emptyTimes int
	oaiStatus  int
	mu         sync.Mutex
	queries    []string
	oaiCalls   int
	agents     []string
}

func (p *pagedArxiv) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.agents = append(p.agents, r.Header.Get("User-Agent"))
	switch r.URL.Path {
	case "/api/query":
		q := r.URL.Query()
		p.queries = append(p.queries, q.Get("search_query"))
		if q.Get("id_list") == "abc" || q.Get("search_query") == "id:abc" {
			w.WriteHeader(http.StatusBadRequest)
			b, _ := os.ReadFile("testdata/feed_error_400.xml")
			w.Write(b)
			return
		}
		start, _ := strconv.Atoi(q.Get("start"))
		n, _ := strconv.Atoi(q.Get("max_results"))
		n = min(n, 2) // arXiv may answer short pages
		if start == p.emptyAt && p.emptyTimes > 0 {
			p.emptyTimes--
			n = 0
		}
		io.WriteString(w, atomPage(p.total, start, min(n, p.total-start)))
	case "/oai":
		p.oaiCalls++
		if p.oaiStatus != 0 {
			w.WriteHeader(p.oaiStatus)
			return
		}
		b, _ := os.ReadFile("testdata/oai_record.xml")
		id := strings.TrimPrefix(r.URL.Query().Get("identifier"), "oai:arXiv.org:")
		s := strings.ReplaceAll(string(b), "{{ID}}", id)
		io.WriteString(w, strings.ReplaceAll(s, "{{LICENSE}}", "http://creativecommons.org/licenses/by/4.0/"))
	default:
		http.NotFound(w, r)
	}
}

// atomPage writes an export API page in the Atom shape arXiv answers with.
func atomPage(total, start, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <opensearch:totalResults>%d</opensearch:totalResults>
  <opensearch:startIndex>%d</opensearch:startIndex>
`, total, start)
	for i := start; i < start+n; i++ {
		fmt.Fprintf(&b, `  <entry>
    <id>http://arxiv.org/abs/2501.%05dv1</id>
    <title>Paper %d</title>
    <author><name>A. Author</name></author>
    <link href="http://arxiv.org/abs/2501.%05dv1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2501.%05dv1" rel="related" type="application/pdf"/>
    <arxiv:primary_category term="cs.CL"/>
  </entry>
`, i, i, i, i)
	}
	b.WriteString("</feed>\n")
	return b.String()
}

func pagedSource(t *testing.T, p *pagedArxiv, query string, cfg sources.ArxivConfig, opts Options) (*Source, *bytes.Buffer) {
	t.Helper()
	s, logs := sourceAt(t, p, query, cfg, opts)
	s.setDelay(0)
	return s, logs
}

// sourceAt is the source for query against a local server h that answers
// the export API at /api/query and OAI-PMH at /oai, with no retries and
// its log kept; it is paced as cfg says.
func sourceAt(t *testing.T, h http.Handler, query string, cfg sources.ArxivConfig, opts Options) (*Source, *bytes.Buffer) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cfg.BaseURL = srv.URL + "/api/query"
	cfg.OAIURL = srv.URL + "/oai"
	cfg.Retries = -1
	opts.Config = cfg
	var logs bytes.Buffer
	opts.Log = slog.New(slog.NewTextHandler(&logs, nil))
	s, err := New(query, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s, &logs
}

func TestQueryReachesArxivAsWritten(t *testing.T) {
	for _, q := range []string{`"large language models"`, "agents OR robots", `ti:"tool use" ANDNOT au:smith`} {
		p := &pagedArxiv{t: t, total: 1}
		s, _ := pagedSource(t, p, q, sources.ArxivConfig{MaxResults: 1}, Options{})
		if _, err := s.Plan(context.Background()); err != nil {
			t.Fatal(err)
		}
		if p.queries[0] != q {
			t.Errorf("search_query = %q, want %q as written", p.queries[0], q)
		}
	}
}

func TestEmptyMiddlePage(t *testing.T) {
	cases := []struct {
		name       string
		emptyTimes int
		want       int
		warns      bool
	}{
		{"retried once", 1, 6, false},
		{"retried until arXiv answers", emptyPageRetries, 6, false},
		{"gives up with a warning", emptyPageRetries + 1, 2, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &pagedArxiv{t: t, total: 6, emptyAt: 2, emptyTimes: tc.emptyTimes}
			s, logs := pagedSource(t, p, "agents", sources.ArxivConfig{MaxResults: 6}, Options{})
			plan, err := s.Plan(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(plan) != tc.want {
				t.Errorf("%d papers, want %d", len(plan), tc.want)
			}
			if warned := strings.Contains(logs.String(), "stopping early"); warned != tc.warns {
				t.Errorf("warned %v, want %v:\n%s", warned, tc.warns, logs)
			}
		})
	}
}

func TestErrorFeedSummaryOn400(t *testing.T) {
	p := &pagedArxiv{t: t}
	s, _ := pagedSource(t, p, "id:abc", sources.ArxivConfig{}, Options{})
	_, err := s.Plan(context.Background())
	if err == nil || !strings.Contains(err.Error(), "incorrect id format for abc") || !strings.Contains(err.Error(), "400") {
		t.Errorf("Plan = %v, want arXiv's explanation", err)
	}
}

func TestLicenseCacheAcrossRuns(t *testing.T) {
	cache := t.TempDir()
	p := &pagedArxiv{t: t, total: 4}
	for run := 1; run <= 2; run++ {
		s, _ := pagedSource(t, p, "agents", sources.ArxivConfig{MaxResults: 4}, Options{CacheDir: cache, Licenses: []string{"CC-BY-4.0"}})
		plan, err := s.Plan(context.Background())
		if err != nil || len(plan) != 4 || plan[0].Source.License != "CC-BY-4.0" {
			t.Fatalf("run %d: plan %+v, %v", run, plan, err)
		}
		if run == 1 && p.oaiCalls != 4 {
			t.Errorf("first run: %d OAI calls, want 4", p.oaiCalls)
		}
	}
	if p.oaiCalls != 4 {
		t.Errorf("second run made %d OAI calls, want none", p.oaiCalls-4)
	}
	if _, err := os.Stat(filepath.Join(cache, "arxiv", "licenses.json")); err != nil {
		t.Error(err)
	}
}

func TestEveryLicenseLookupFailsLoudly(t *testing.T) {
	p := &pagedArxiv{t: t, total: 2, oaiStatus: http.StatusMovedPermanently}
	s, _ := pagedSource(t, p, "agents", sources.ArxivConfig{MaxResults: 2}, Options{Licenses: []string{"CC-BY-4.0"}})
	_, err := s.Plan(context.Background())
	if err == nil || !strings.Contains(err.Error(), "every license lookup") || !strings.Contains(err.Error(), DefaultOAIURL) {
		t.Errorf("Plan = %v, want a loud failure naming oai_url", err)
	}
	p2 := &pagedArxiv{t: t, total: 2, oaiStatus: http.StatusNotFound}
	s2, _ := pagedSource(t, p2, "agents", sources.ArxivConfig{MaxResults: 2}, Options{})
	if plan, err := s2.Plan(context.Background()); err != nil || len(plan) != 2 {
		t.Errorf("without a license filter: %d papers, %v", len(plan), err)
	}
}

func TestUserAgentContact(t *testing.T) {
	p := &pagedArxiv{t: t, total: 1}
	s, _ := pagedSource(t, p, "x", sources.ArxivConfig{MaxResults: 1}, Options{Contact: "me@example.org"})
	s.Plan(context.Background())
	if !strings.HasPrefix(p.agents[0], "synth/") || !strings.Contains(p.agents[0], "me@example.org") {
		t.Errorf("User-Agent = %q", p.agents[0])
	}
}

func TestLooksLikeTeX(t *testing.T) {
	for _, tc := range []struct {
		head string
		want bool
	}{
		{"\\documentclass{article}\n", true},
		{"% a comment\n\\input{x}\n", true},
		{"%!PS-Adobe-3.0\n", false},
		{"<html><body>", false},
		{"\x00\x01binary", false},
		{"PK\x03\x04", false},
	} {
		if got := looksLikeTeX([]byte(tc.head)); got != tc.want {
			t.Errorf("looksLikeTeX(%q) = %v", tc.head, got)
		}
	}
}

// TestSharedLicenseCache: with LicenseCache set, a run with another
// run directory (CacheDir) asks OAI-PMH for none of the papers seen.
func TestSharedLicenseCache(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "licenses.json")
	p := &pagedArxiv{t: t, total: 3}
	for run := 1; run <= 2; run++ {
		s, _ := pagedSource(t, p, "agents", sources.ArxivConfig{MaxResults: 3}, Options{LicenseCache: shared, CacheDir: t.TempDir()})
		if plan, err := s.Plan(context.Background()); err != nil || len(plan) != 3 {
			t.Fatalf("run %d: %d papers, %v", run, len(plan), err)
		}
	}
	if p.oaiCalls != 3 {
		t.Errorf("%d OAI calls over two runs, want 3", p.oaiCalls)
	}
}

func TestDefaultOAIAddress(t *testing.T) {
	s, err := New("x", Options{})
	if err != nil || s.cfg.OAIURL != "https://oaipmh.arxiv.org/oai" {
		t.Errorf("OAI-PMH at %q, %v; arXiv documents https://oaipmh.arxiv.org/oai", s.cfg.OAIURL, err)
	}
}

// TestEPrintTypedByContent: a single-file e-print is kept as .tex only
// when it is TeX; PostScript, binary bytes and a PDF are not.
func TestEPrintTypedByContent(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		kept       bool
	}{
		{"tex", "\\documentclass{article}\n\\begin{document}Hi.\\end{document}\n", true},
		{"postscript", "%!PS-Adobe-3.0\n%%Pages: 1\n", false},
		{"binary", "\x00\x01\x02\x03\xff\xfe binary", false},
		{"pdf", "%PDF-1.5\n%\xe2\xe3\xcf\xd3\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				gz := gzip.NewWriter(w)
				io.WriteString(gz, tc.body)
				gz.Close()
			}))
			t.Cleanup(srv.Close)
			s, err := New("x", Options{})
			if err != nil {
				t.Fatal(err)
			}
			s.setDelay(0)
			var names []string
			p := Paper{ID: "2401.00001", Version: "v1", PDFURL: srv.URL + "/pdf/2401.00001v1"}
			err = s.collectSource(context.Background(), p, func(it sources.Item) error {
				names = append(names, it.Name)
				return nil
			})
			if err != nil || (len(names) == 1) != tc.kept || tc.kept && names[0] != "2401.00001v1.tex" {
				t.Errorf("kept %v, %v; want kept=%v", names, err, tc.kept)
			}
		})
	}
}
