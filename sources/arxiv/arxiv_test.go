package arxiv

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/schemas"
	"synth/sources"
	"synth/sources/sourcetest"
)

// fakeArxiv serves the export API, OAI-PMH GetRecord, PDFs and e-prints.
type fakeArxiv struct {
	t       *testing.T
	srv     *httptest.Server
	feed    string // testdata file the API answers with
	mu      sync.Mutex
	queries []string
	pdfs    []string
}

var licenses = map[string]string{
	"2403.01234":   "http://creativecommons.org/licenses/by/4.0/",
	"math/0601001": "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
	"2405.00002":   "http://creativecommons.org/licenses/by/4.0/",
}

func newFake(t *testing.T, feed string) *fakeArxiv {
	f := &fakeArxiv{t: t, feed: feed}
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeArxiv) read(name string) string {
	if !strings.Contains(name, "/") {
		name = filepath.Join("testdata", name)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		f.t.Error(err)
	}
	return string(b)
}

func (f *fakeArxiv) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.URL.Path == "/api/query":
		f.queries = append(f.queries, r.URL.RawQuery)
		if r.URL.Query().Get("start") != "0" {
			io.WriteString(w, f.read("feed_empty.xml"))
			return
		}
		w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
		io.WriteString(w, strings.ReplaceAll(f.read(f.feed), "{{BASE}}", f.srv.URL))
	case r.URL.Path == "/oai2":
		id := strings.TrimPrefix(r.URL.Query().Get("identifier"), "oai:arXiv.org:")
		rec := strings.ReplaceAll(f.read("oai_record.xml"), "{{ID}}", id)
		io.WriteString(w, strings.ReplaceAll(rec, "{{LICENSE}}", licenses[id]))
	case strings.HasPrefix(r.URL.Path, "/pdf/"):
		f.pdfs = append(f.pdfs, r.URL.Path)
		if strings.Contains(r.URL.Path, "2405.00002") {
			w.Header().Set("Content-Length", "100000")
			io.WriteString(w, "%PDF-1.4\n% cut short")
			return
		}
		pdf := f.read(filepath.Join("..", "testdata", "files", "paper.pdf"))
		if strings.Contains(r.URL.Path, "math/") {
			pdf = f.read(filepath.Join("..", "testdata", "files", "paper2.pdf"))
		}
		io.WriteString(w, pdf)
	case r.URL.Path == "/e-print/2403.01234v2":
		w.Write(tarGz(f.t, map[string]string{
			"main.tex":           "\\documentclass{article}\\begin{document}Tables.\\end{document}\n",
			"sections/intro.tex": "\\section{Intro} Hello.\n",
			"README.txt":         "Build with pdflatex.\n",
			"fig.png":            "\x89PNG\r\n\x1a\n",
			"../escape.tex":      "no\n",
		}))
	case r.URL.Path == "/e-print/math/0601001v1":
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		io.WriteString(gz, "\\documentclass{amsart}\n\\begin{document}Old.\\end{document}\n")
		gz.Close()
		w.Write(buf.Bytes())
	default:
		http.NotFound(w, r)
	}
}

func tarGz(t *testing.T, files map[string]string) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(files[n])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		io.WriteString(tw, files[n])
	}
	tw.WriteHeader(&tar.Header{Name: "link.tex", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"})
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func newTestSource(t *testing.T, f *fakeArxiv, cfg sources.ArxivConfig, opts Options) (*Source, *bytes.Buffer) {
	t.Helper()
	cfg.BaseURL = f.srv.URL + "/api/query"
	cfg.OAIURL = f.srv.URL + "/oai2"
	opts.Config = cfg
	var logs bytes.Buffer
	opts.Log = slog.New(slog.NewTextHandler(&logs, nil))
	s, err := New("tables", opts)
	if err != nil {
		t.Fatal(err)
	}
	s.setDelay(0)
	return s, &logs
}

func collect(t *testing.T, s *Source) ([]sources.Item, []string) {
	t.Helper()
	var items []sources.Item
	var bodies []string
	err := s.Collect(context.Background(), func(it sources.Item) error {
		b, err := io.ReadAll(it.Body)
		if err != nil {
			return nil // a cut download: what a store would reject
		}
		items = append(items, it)
		bodies = append(bodies, string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return items, bodies
}

func TestCollect(t *testing.T) {
	f := newFake(t, "feed_page.xml")
	s, logs := newTestSource(t, f, sources.ArxivConfig{Categories: []string{"cs.CL", "math.AG"}, Source: true, Sort: "submittedDate"}, Options{})
	items, bodies := collect(t, s)
	var refs []string
	for _, it := range items {
		refs = append(refs, it.Source.Ref)
	}
	want := []string{
		"2403.01234v2",
		"2403.01234v2/README.txt",
		"2403.01234v2/main.tex",
		"2403.01234v2/sections/intro.tex",
		"math/0601001v1",
		"math/0601001v1/math_0601001v1.tex",
	}
	if !slices.Equal(refs, want) {
		t.Errorf("collected %v, want %v", refs, want)
	}
	first := items[0].Source
	if first.License != "CC-BY-4.0" || first.Version != "2" || !strings.HasPrefix(first.Title, "Reading Tables with Small Language Models — Ada Lovelace, Alan Turing") {
		t.Errorf("provenance = %+v", first)
	}
	if items[0].Name != "2403.01234v2.pdf" || !strings.HasPrefix(bodies[0], "%PDF") {
		t.Errorf("first item %s", items[0].Name)
	}
	if lic := items[4].Source.License; lic != "LicenseRef-arXiv-nonexclusive-distrib-1.0" {
		t.Errorf("old paper's license = %q", lic)
	}
	q := f.queries[0]
	for _, part := range []string{"search_query=%28tables%29+AND+%28cat%3Acs.CL+OR+cat%3Amath.AG%29", "sortBy=submittedDate", "max_results=10", "start=0"} {
		if !strings.Contains(q, part) {
			t.Errorf("query %q lacks %s", q, part)
		}
	}
	for _, msg := range []string{"not-an-id", "skip malformed entry", "../escape.tex", "link.tex"} {
		if !strings.Contains(logs.String(), msg) {
			t.Errorf("log lacks %q:\n%s", msg, logs)
		}
	}
}

func TestCutPDFIsSkippedByTheStore(t *testing.T) {
	f := newFake(t, "feed_page.xml")
	s, _ := newTestSource(t, f, sources.ArxivConfig{}, Options{})
	st, err := sources.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var files []schemas.File
	var logs bytes.Buffer
	stats, err := sources.Collect(context.Background(), s, st, sources.Limits{}, slog.New(slog.NewTextHandler(&logs, nil)), func(f schemas.File) error {
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || stats.Skipped["unreadable"] != 1 || !strings.Contains(logs.String(), "2405.00002v1.pdf") {
		t.Errorf("files %d, stats %+v, log:\n%s", len(files), stats, logs.String())
	}
	if files[0].Type != "pdf" || files[0].Preview == nil || files[0].Preview.Pages != 2 {
		t.Errorf("first file = %+v", files[0])
	}
}

func TestFeeds(t *testing.T) {
	cases := []struct {
		feed, wantErr, wantLog string
	}{
		{"feed_empty.xml", "", "no papers found"},
		{"feed_error.xml", "max_results must be non-negative", ""},
		{"feed_malformed.xml", "malformed feed", ""},
	}
	for _, tc := range cases {
		t.Run(tc.feed, func(t *testing.T) {
			f := newFake(t, tc.feed)
			s, logs := newTestSource(t, f, sources.ArxivConfig{}, Options{})
			n := 0
			err := s.Collect(context.Background(), func(sources.Item) error { n++; return nil })
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("Collect = %v, want error %q", err, tc.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "tables") {
				t.Errorf("error %q does not name the query", err)
			}
			if n != 0 || !strings.Contains(logs.String(), tc.wantLog) {
				t.Errorf("%d items; log:\n%s", n, logs)
			}
		})
	}
}

func TestLicenseAllowList(t *testing.T) {
	f := newFake(t, "feed_page.xml")
	s, _ := newTestSource(t, f, sources.ArxivConfig{}, Options{Licenses: []string{"CC-BY-4.0"}})
	items, _ := collect(t, s)
	if len(items) != 1 || items[0].Source.Ref != "2403.01234v2" {
		t.Errorf("items = %v", items)
	}
	for _, p := range f.pdfs {
		if strings.Contains(p, "math/") {
			t.Errorf("downloaded %s, whose license is not allowed", p)
		}
	}
}

func TestPlan(t *testing.T) {
	f := newFake(t, "feed_page.xml")
	s, _ := newTestSource(t, f, sources.ArxivConfig{}, Options{})
	plan, err := s.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.pdfs) != 0 {
		t.Errorf("a dry run downloaded %v", f.pdfs)
	}
	if len(plan) != 3 || plan[1].Name != "math_0601001v1.pdf" || plan[0].Source.License != "CC-BY-4.0" {
		t.Errorf("plan = %+v", plan)
	}
}

func TestSearchQuery(t *testing.T) {
	for _, tc := range []struct {
		q    string
		cats []string
		want string
	}{
		{"graph neural", nil, "graph neural"},
		{`"large language models"`, nil, `"large language models"`},
		{"agents OR robots", []string{"cs.AI"}, "(agents OR robots) AND cat:cs.AI"},
		{"ti:transformer", []string{"cs.LG"}, "(ti:transformer) AND cat:cs.LG"},
		{"", []string{"cs.CL", "cs.AI"}, "(cat:cs.CL OR cat:cs.AI)"},
	} {
		if got := searchQuery(tc.q, tc.cats); got != tc.want {
			t.Errorf("searchQuery(%q, %v) = %q, want %q", tc.q, tc.cats, got, tc.want)
		}
	}
}

// TestDelayFloor: arXiv's own hosts are never asked more often than every
// 3 s, whatever delay_seconds says; another host (a mirror, a local
// server) is spaced as set.
func TestDelayFloor(t *testing.T) {
	s, err := New("x", Options{Config: sources.ArxivConfig{DelaySeconds: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	spacing := func(host string) time.Duration { return max(s.client.HostEvery, s.client.HostFloor(host)) }
	for host, want := range map[string]time.Duration{
		"export.arxiv.org": MinDelay, "arxiv.org": MinDelay, "oaipmh.arxiv.org": MinDelay,
		"127.0.0.1": 500 * time.Millisecond, "notarxiv.org": 500 * time.Millisecond,
	} {
		if got := spacing(host); got != want {
			t.Errorf("%s: spaced %v, want %v", host, got, want)
		}
	}
	if d, _ := New("x", Options{}); d.delay != MinDelay {
		t.Errorf("default delay %v, want %v", d.delay, MinDelay)
	}
}

func TestConformance(t *testing.T) {
	sourcetest.Run(t, func(t *testing.T) sources.Source {
		f := newFake(t, "feed_page.xml")
		s, _ := newTestSource(t, f, sources.ArxivConfig{}, Options{})
		return &noCut{s}
	}, sourcetest.Options{MinItems: 2, PlanMayDiffer: true})
}

// noCut leaves out the paper whose download the fake cuts, which the
// suite's raw reads would report.
type noCut struct{ *Source }

func (n *noCut) Collect(ctx context.Context, put func(sources.Item) error) error {
	return n.Source.Collect(ctx, func(it sources.Item) error {
		if strings.HasPrefix(it.Source.Ref, "2405.00002") {
			io.Copy(io.Discard, it.Body)
			return nil
		}
		return put(it)
	})
}
