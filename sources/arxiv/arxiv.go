package arxiv

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"synth/schemas"
	"synth/sources"
	"synth/sources/fetch"
)

// Defaults for the arXiv endpoints and politeness.
const (
	DefaultBaseURL = "https://export.arxiv.org/api/query"
	DefaultOAIURL  = "https://oaipmh.arxiv.org/oai"
	MinDelay       = 3 * time.Second
	pageSize       = 100
	// emptyPageRetries is how often an empty page inside the results is
	// asked again before paging stops with a warning.
	emptyPageRetries = 3
)

// Options configure an arXiv source beyond the query.
type Options struct {
	Config   sources.ArxivConfig
	Licenses []string // allow-list: papers under other licenses are not downloaded
	Archive  sources.ArchiveLimits
	// LicenseCache is the file that keeps the licenses read over OAI-PMH,
	// by paper id, so that a rerun or an overlapping query asks again for
	// none of them. Empty: <CacheDir>/arxiv/licenses.json, or no cache
	// when CacheDir is empty too.
	LicenseCache string
	CacheDir     string
	Contact      string // sent in the User-Agent (an e-mail address or URL)
	// IdleTimeout abandons a request that receives nothing for this long
	// (0: fetch.DefaultIdleTimeout).
	IdleTimeout time.Duration
	Log         *slog.Logger
	HTTP        *http.Client // nil: the fetch default
	// Since, if set, keeps only papers first published at or after it.
	Since time.Time
}

// Source is the arxiv:QUERY source.
type Source struct {
	query  string
	ids    []string // papers taken by identifier (sources.arxiv.ids, or a spec of ids)
	opts   Options
	cfg    sources.ArxivConfig
	delay  time.Duration // between requests; tests set it below MinDelay
	client *fetch.Client
	log    *slog.Logger
	// licenses caches OAI-PMH answers by paper id, saved under CacheDir.
	licenses     map[string]string
	licenseTries int // lookups that reached OAI-PMH this run
	licenseFails int
	harvested    int // licenses a harvest added to the cache
}

// New returns the source for a search query.
func New(query string, opts Options) (*Source, error) {
	cfg := opts.Config
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.OAIURL == "" {
		cfg.OAIURL = DefaultOAIURL
	}
	if cfg.MaxResults == 0 {
		cfg.MaxResults = 10
	}
	switch cfg.Sort {
	case "", "relevance", "lastUpdatedDate", "submittedDate":
	default:
		return nil, fmt.Errorf("sources.arxiv.sort: %q (want relevance, lastUpdatedDate or submittedDate)", cfg.Sort)
	}
	retries := cfg.Retries
	if retries == 0 {
		retries = 3
	}
	delay := time.Duration(cfg.DelaySeconds * float64(time.Second))
	if delay <= 0 {
		delay = MinDelay
	}
	c := fetch.New(0, retries)
	c.Header.Set("User-Agent", fetch.UserAgent(opts.Contact))
	c.IdleTimeout = opts.IdleTimeout
	c.HostFloor = arxivFloor
	c.Backoff = func(n int) time.Duration { return time.Duration(n) * delay }
	if opts.HTTP != nil {
		c.HTTP = opts.HTTP
	}
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	s := &Source{query: query, opts: opts, cfg: cfg, client: c, log: log}
	for _, id := range cfg.IDs {
		got, ok := idList(id)
		if !ok || len(got) != 1 {
			return nil, fmt.Errorf("sources.arxiv.ids: %q is not an arXiv identifier (want 2101.00001, 2101.00001v2 or hep-ex/0307015)", id)
		}
		s.ids = append(s.ids, got[0])
	}
	if ids, ok := idList(query); ok {
		s.ids, s.query = append(s.ids, ids...), ""
	}
	if err := checkHarvest(cfg); err != nil {
		return nil, err
	}
	s.setDelay(delay)
	s.loadLicenses()
	return s, nil
}

// arxivFloor is arXiv's minimum spacing for its own hosts; a mirror or a
// local server is spaced as delay_seconds says.
func arxivFloor(host string) time.Duration {
	if host == "arxiv.org" || strings.HasSuffix(host, ".arxiv.org") {
		return MinDelay
	}
	return 0
}

// UserLicenseCache is the license cache shared by every run of this user:
// <user cache dir>/synth/arxiv/licenses.json ($XDG_CACHE_HOME, else
// ~/.cache), or "" when there is no such folder.
func UserLicenseCache() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "synth", "arxiv", "licenses.json")
}

// setDelay spaces requests to each host at least d apart (arXiv's own
// hosts at least MinDelay), with one limiter per host for the whole run,
// shared by every arXiv source (0: no spacing but arXiv's, for tests).
func (s *Source) setDelay(d time.Duration) {
	s.delay = d
	s.client.Limiter = nil
	s.client.HostEvery = d
	if d <= 0 {
		s.client.Backoff = func(int) time.Duration { return 0 }
	}
}

// Kind returns "arxiv".
func (s *Source) Kind() string { return sources.KindArxiv }

// Collect searches and, for each paper in the feed's order, puts its PDF
// (and its source's .tex and .txt files if configured). A malformed entry,
// a failed download or a broken tarball is logged and skipped.
func (s *Source) Collect(ctx context.Context, put func(sources.Item) error) error {
	papers, err := s.papers(ctx)
	if err != nil {
		return err
	}
	for _, p := range papers {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.collectPaper(ctx, p, put); err != nil {
			var pe putError
			if errors.As(err, &pe) {
				return pe.err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.log.Warn("skip paper", "source", "arxiv", "paper", p.ID+p.Version, "err", err)
		}
	}
	return nil
}

// Plan lists the PDFs Collect would download (size unknown: 0) with their
// licenses, downloading no PDF.
func (s *Source) Plan(ctx context.Context) ([]sources.Planned, error) {
	papers, err := s.papers(ctx)
	if err != nil {
		return nil, err
	}
	var out []sources.Planned
	for _, p := range papers {
		out = append(out, sources.Planned{Name: pdfName(p), Source: provenance(p, p.PDFURL, "")})
	}
	return out, nil
}

type putError struct{ err error }

func (e putError) Error() string { return e.err.Error() }

// papers takes the papers named by identifier, then runs the search (or
// the harvest, with sources.arxiv.from), reads each paper's license, and
// keeps those the allow-list admits.
func (s *Source) papers(ctx context.Context) ([]Paper, error) {
	defer s.saveLicenses()
	var out []Paper
	if len(s.ids) > 0 {
		got, err := s.pages(ctx, "id_list "+strings.Join(s.ids, ","), len(s.ids), func(q url.Values) { q.Set("id_list", strings.Join(s.ids, ",")) })
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	switch {
	case s.cfg.From != "":
		got, err := s.harvest(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	case s.query != "" || len(s.cfg.Categories) > 0 || len(s.ids) == 0:
		got, err := s.pages(ctx, s.query, s.cfg.MaxResults, func(q url.Values) {
			q.Set("search_query", searchQuery(s.query, s.cfg.Categories))
			if s.cfg.Sort != "" {
				q.Set("sortBy", s.cfg.Sort)
				q.Set("sortOrder", "descending")
			}
		})
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	if len(s.opts.Licenses) > 0 && s.licenseTries > 0 && s.licenseFails == s.licenseTries {
		return nil, fmt.Errorf("arxiv: every license lookup (%d) at %s failed, so the license filter would drop every paper; check sources.arxiv.oai_url (arXiv documents %s)", s.licenseTries, s.cfg.OAIURL, DefaultOAIURL)
	}
	return out, nil
}

// pages reads the export API's answers page by page, up to limit papers
// the allow-list admits; set adds the query's own parameters.
func (s *Source) pages(ctx context.Context, what string, limit int, set func(url.Values)) ([]Paper, error) {
	var out []Paper
	total := -1
	for start, empties := 0, 0; len(out) < limit; {
		n := min(pageSize, limit-len(out))
		f, err := s.search(ctx, start, n, set)
		if err != nil {
			return nil, fmt.Errorf("arxiv: search %q: %w", what, err)
		}
		if f.TotalResults > 0 {
			total = f.TotalResults
		}
		if len(f.Entries) == 0 {
			if start == 0 {
				s.log.Warn("no papers found", "source", "arxiv", "query", what, "categories", s.cfg.Categories)
				break
			}
			if start < total && empties < emptyPageRetries {
				empties++
				s.log.Info("empty page inside the results; asking again", "source", "arxiv", "start", start, "total", total, "try", empties)
				continue
			}
			if start < total {
				s.log.Warn("arXiv kept answering an empty page inside the results; stopping early", "source", "arxiv", "query", what, "start", start, "total", total, "papers", len(out))
			}
			break
		}
		empties = 0
		for _, e := range f.Entries {
			p, err := e.paper()
			if err != nil {
				s.log.Warn("skip malformed entry", "source", "arxiv", "query", what, "err", err)
				continue
			}
			if !s.admit(ctx, &p) {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				continue
			}
			if len(out) < limit {
				out = append(out, p)
			}
		}
		start += len(f.Entries)
		if f.TotalResults > 0 && start >= f.TotalResults {
			break
		}
	}
	return out, nil
}

// admit reads a paper's license when the feed has none, and reports
// whether the allow-list and sources.since admit it.
func (s *Source) admit(ctx context.Context, p *Paper) bool {
	if !s.opts.Since.IsZero() && !p.Published.IsZero() && p.Published.Before(s.opts.Since) {
		s.log.Info("skip paper: published before sources.since", "source", "arxiv", "paper", p.ID, "published", p.Published.Format(time.DateOnly))
		return false
	}
	if p.License == "" {
		p.License = s.license(ctx, p.ID)
		if ctx.Err() != nil {
			return false
		}
	}
	p.License = sources.NormalizeLicense(p.License)
	if !sources.LicenseAllowed(p.License, s.opts.Licenses) {
		s.log.Info("skip paper: license not allowed", "source", "arxiv", "paper", p.ID, "license", p.License)
		return false
	}
	return true
}

func (s *Source) search(ctx context.Context, start, n int, set func(url.Values)) (*feed, error) {
	q := url.Values{}
	set(q)
	q.Set("start", strconv.Itoa(start))
	q.Set("max_results", strconv.Itoa(n))
	resp, err := s.client.Get(ctx, s.cfg.BaseURL+"?"+q.Encode())
	var se *fetch.StatusError
	if errors.As(err, &se) && se.Code/100 == 4 {
		if _, ferr := parseFeed(bytes.NewReader(se.Raw)); ferr != nil && strings.HasPrefix(ferr.Error(), "arXiv API error") {
			return nil, fmt.Errorf("%d %s: %w", se.Code, http.StatusText(se.Code), ferr)
		}
	}
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return parseFeed(io.LimitReader(resp.Body, 32<<20))
}

// searchQuery builds the API's search_query: the query as written, which
// arXiv parses itself (field prefixes such as ti: and cat:, "quoted
// phrases", AND, OR, ANDNOT and parentheses; a bare word searches all
// fields). Categories are ORed and ANDed with it.
func searchQuery(query string, cats []string) string {
	q := strings.TrimSpace(query)
	if len(cats) > 0 {
		parts := make([]string, len(cats))
		for i, c := range cats {
			parts[i] = "cat:" + c
		}
		c := strings.Join(parts, " OR ")
		if len(cats) > 1 {
			c = "(" + c + ")"
		}
		if q == "" {
			return c
		}
		q = "(" + q + ") AND " + c
	}
	return q
}

// license reads a paper's license over OAI-PMH, from the cache when this
// or an earlier run read it; "" if it cannot. OAI-PMH's GetRecord takes one
// identifier, so papers not seen before cost one call each.
func (s *Source) license(ctx context.Context, id string) string {
	if l, ok := s.licenses[id]; ok {
		return l
	}
	s.licenseTries++
	l, err := s.fetchLicense(ctx, id)
	if err != nil {
		s.licenseFails++
		s.log.Warn("no license", "source", "arxiv", "paper", id, "err", err)
		return ""
	}
	s.licenses[id] = l
	return l
}

func (s *Source) fetchLicense(ctx context.Context, id string) (string, error) {
	q := url.Values{"verb": {"GetRecord"}, "identifier": {"oai:arXiv.org:" + id}, "metadataPrefix": {"arXiv"}}
	resp, err := s.client.Get(ctx, s.cfg.OAIURL+"?"+q.Encode())
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var rec oaiRecord
	if err := xml.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&rec); err != nil {
		return "", fmt.Errorf("%s: not an OAI-PMH answer: %w", s.cfg.OAIURL, err)
	}
	if rec.XMLName.Local != "OAI-PMH" {
		return "", fmt.Errorf("%s: not an OAI-PMH answer (root <%s>)", s.cfg.OAIURL, rec.XMLName.Local)
	}
	if e := strings.TrimSpace(rec.Error); e != "" {
		return "", fmt.Errorf("%s: OAI-PMH error: %s", s.cfg.OAIURL, e)
	}
	return strings.TrimSpace(rec.License), nil
}

func (s *Source) licenseCache() string {
	if s.opts.LicenseCache != "" {
		return s.opts.LicenseCache
	}
	if s.opts.CacheDir == "" {
		return ""
	}
	return filepath.Join(s.opts.CacheDir, "arxiv", "licenses.json")
}

func (s *Source) loadLicenses() {
	s.licenses = map[string]string{}
	if p := s.licenseCache(); p != "" {
		if b, err := os.ReadFile(p); err == nil {
			if err := json.Unmarshal(b, &s.licenses); err != nil {
				s.log.Warn("ignore unreadable license cache", "source", "arxiv", "path", p, "err", err)
				s.licenses = map[string]string{}
			}
		}
	}
}

func (s *Source) saveLicenses() {
	p := s.licenseCache()
	if p == "" || s.licenseTries == 0 && s.harvested == 0 {
		return
	}
	// Keep what another run saved meanwhile, then add this run's answers.
	all := map[string]string{}
	if b, err := os.ReadFile(p); err == nil {
		json.Unmarshal(b, &all)
	}
	for id, l := range s.licenses {
		all[id] = l
	}
	b, _ := json.Marshal(all)
	if err := writeAtomic(p, b); err != nil {
		s.log.Warn("license cache not saved", "source", "arxiv", "path", p, "err", err)
	}
}

// writeAtomic writes b to a temporary file beside p and renames it over p.
func writeAtomic(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".licenses-*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

func provenance(p Paper, u, file string) schemas.Source {
	ref := p.ID + p.Version
	if file != "" {
		ref += "/" + file
	}
	title := p.Title
	if len(p.Authors) > 0 {
		title += " — " + strings.Join(p.Authors, ", ")
	}
	return schemas.Source{Kind: sources.KindArxiv, Ref: ref, URL: u, License: p.License, Version: strings.TrimPrefix(p.Version, "v"), Title: title}
}

func pdfName(p Paper) string {
	return strings.ReplaceAll(p.ID, "/", "_") + p.Version + ".pdf"
}

func (s *Source) collectPaper(ctx context.Context, p Paper, put func(sources.Item) error) error {
	resp, err := s.client.Get(ctx, p.PDFURL)
	if err != nil {
		return fmt.Errorf("pdf: %w", err)
	}
	size := max(resp.ContentLength, 0)
	err = put(sources.Item{Name: pdfName(p), Body: resp.Body, Size: size, Source: provenance(p, p.PDFURL, "")})
	resp.Body.Close()
	if err != nil {
		return putError{err}
	}
	if s.cfg.Abstracts && p.Abstract != "" {
		name := strings.TrimSuffix(pdfName(p), ".pdf") + ".abstract.txt"
		text := p.Title + "\n\n" + p.Abstract + "\n"
		if err := put(sources.Item{Name: name, Body: strings.NewReader(text), Size: int64(len(text)), Source: provenance(p, p.AbsURL, name)}); err != nil {
			return putError{err}
		}
	}
	if !s.cfg.Source {
		return nil
	}
	return s.collectSource(ctx, p, put)
}

// collectSource downloads the e-print (a gzipped tar, or one gzipped .tex)
// and puts its .tex and .txt files.
func (s *Source) collectSource(ctx context.Context, p Paper, put func(sources.Item) error) error {
	u := ePrintURL(p)
	resp, err := s.client.Get(ctx, u)
	if err != nil {
		return fmt.Errorf("source: %w", err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var r io.Reader = br
	if magic, _ := br.Peek(2); string(magic) == "\x1f\x8b" {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("source: %w", err)
		}
		defer gz.Close()
		r = gz
	}
	tb := bufio.NewReaderSize(r, 1024)
	head, _ := tb.Peek(512)
	if len(head) >= 262 && string(head[257:262]) == "ustar" {
		skipped, err := sources.EachTar(tb, s.opts.Archive, func(e sources.Entry) error {
			switch strings.ToLower(path.Ext(e.Path)) {
			case ".tex", ".txt":
			default:
				return nil
			}
			if err := ctx.Err(); err != nil {
				return putError{err}
			}
			if err := put(sources.Item{Name: path.Base(e.Path), Body: e.Body, Size: e.Size, Source: provenance(p, u, e.Path)}); err != nil {
				return putError{err}
			}
			return nil
		})
		for _, sk := range skipped {
			s.log.Warn("skip source entry", "source", "arxiv", "paper", p.ID, "entry", sk.Path, "reason", sk.Reason)
		}
		return err
	}
	if strings.HasPrefix(string(head), "%PDF") {
		return nil // the source is the PDF itself
	}
	if !looksLikeTeX(head) {
		s.log.Info("skip e-print: neither a tarball, a PDF nor TeX", "source", "arxiv", "paper", p.ID+p.Version, "starts", fmt.Sprintf("%.40q", head))
		return nil
	}
	name := strings.ReplaceAll(p.ID, "/", "_") + p.Version + ".tex"
	if err := put(sources.Item{Name: name, Body: tb, Source: provenance(p, u, name)}); err != nil {
		return putError{err}
	}
	return nil
}

// looksLikeTeX reports whether the start of a single-file e-print is TeX
// source: text with a TeX command or comment near the top.
func looksLikeTeX(head []byte) bool {
	if len(head) == 0 || bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(head[:len(head)-min(len(head), 3)]) {
		return false
	}
	t := string(head)
	for _, m := range []string{"\\documentclass", "\\documentstyle", "\\begin{", "\\input", "\\section", "\\title", "\\def", "\\newcommand", "\\usepackage"} {
		if strings.Contains(t, m) {
			return true
		}
	}
	return strings.HasPrefix(strings.TrimSpace(t), "%") && !strings.HasPrefix(t, "%!PS")
}

// ePrintURL is the source tarball's URL, on the PDF's host.
func ePrintURL(p Paper) string {
	u, err := url.Parse(p.PDFURL)
	if err != nil || u.Host == "" {
		return "https://arxiv.org/e-print/" + p.ID + p.Version
	}
	u.Path = "/e-print/" + p.ID + p.Version
	u.RawQuery = ""
	return u.String()
}
