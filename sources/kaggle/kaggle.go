package kaggle

import (
	"context"
	"encoding/json"
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

	"synth/schemas"
	"synth/sources"
	"synth/sources/fetch"
)

// DefaultBaseURL is Kaggle's public API root.
const DefaultBaseURL = "https://www.kaggle.com/api/v1"

// Options configure a Kaggle source beyond the search query.
type Options struct {
	Config sources.KaggleConfig
	// Licenses is the collection allow-list: datasets under other licenses
	// are not downloaded.
	Licenses []string
	// MaxFileBytes skips listed files over this size in plans (0: none).
	MaxFileBytes int64
	Archive      sources.ArchiveLimits
	// CacheDir keeps downloaded archives (<dir>/kaggle/<owner>/<slug>/v<N>.zip)
	// so a rerun does not download them again. Empty: a temp dir, removed.
	CacheDir string
	Log      *slog.Logger
	Getenv   func(string) string // nil: os.Getenv
	HTTP     *http.Client        // nil: the fetch default
}

// Source is the kaggle:QUERY source.
type Source struct {
	query  string
	opts   Options
	cfg    sources.KaggleConfig
	base   string
	creds  Credentials
	client *fetch.Client
	log    *slog.Logger
}

// New returns the source for a search query. It fails, naming the
// credential file, when there are no credentials.
func New(query string, opts Options) (*Source, error) {
	cfg := opts.Config
	creds, err := LoadCredentials(cfg.Credentials, opts.Getenv)
	if err != nil {
		return nil, err
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.MaxDatasets == 0 {
		cfg.MaxDatasets = 10
	}
	if cfg.MaxPages == 0 {
		cfg.MaxPages = 5
	}
	if cfg.RequestsPerMinute == 0 {
		cfg.RequestsPerMinute = 30
	}
	retries := cfg.Retries
	if retries == 0 {
		retries = 4
	}
	for _, s := range []string{cfg.MinSize, cfg.MaxSize} {
		if _, err := sources.ParseSize(s); err != nil {
			return nil, fmt.Errorf("sources.kaggle: %w", err)
		}
	}
	c := fetch.New(float64(cfg.RequestsPerMinute), retries)
	if opts.HTTP != nil {
		c.HTTP = opts.HTTP
	}
	c.Authorize = func(r *http.Request) { r.SetBasicAuth(creds.Username, creds.Key) }
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	return &Source{query: query, opts: opts, cfg: cfg, base: strings.TrimRight(cfg.BaseURL, "/"), creds: creds, client: c, log: log}, nil
}

// Kind returns "kaggle".
func (s *Source) Kind() string { return sources.KindKaggle }

// Collect searches, then for each dataset (in the API's order, up to
// max_datasets, explicit datasets first) downloads its archive and puts
// each safe file in it. A dataset that fails (a server error after retries,
// a truncated download, a broken archive) is logged and skipped; 401 and
// 403 stop the source with a message naming the credentials.
func (s *Source) Collect(ctx context.Context, put func(sources.Item) error) error {
	sets, err := s.datasets(ctx)
	if err != nil {
		return err
	}
	for _, d := range sets {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.collectDataset(ctx, d, put); err != nil {
			if s.stops(err) {
				return s.explain(err)
			}
			s.log.Warn("skip dataset", "source", "kaggle", "dataset", d.Ref, "err", err)
		}
	}
	return nil
}

// Plan lists the files of the datasets Collect would download, with their
// sizes and licenses, downloading nothing.
func (s *Source) Plan(ctx context.Context) ([]sources.Planned, error) {
	sets, err := s.datasets(ctx)
	if err != nil {
		return nil, err
	}
	var out []sources.Planned
	for _, d := range sets {
		files, err := s.files(ctx, d)
		if err != nil {
			if s.stops(err) {
				return nil, s.explain(err)
			}
			s.log.Warn("skip dataset", "source", "kaggle", "dataset", d.Ref, "err", err)
			continue
		}
		for _, f := range files {
			if s.opts.MaxFileBytes > 0 && f.TotalBytes > s.opts.MaxFileBytes {
				continue
			}
			out = append(out, sources.Planned{Name: path.Base(f.Name), Size: f.TotalBytes, Source: s.provenance(d, f.Name)})
		}
	}
	return out, nil
}

// stops reports an error that ends the whole source.
func (s *Source) stops(err error) bool {
	var se *fetch.StatusError
	return errors.As(err, &se) && se.Fatal() || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, errPut)
}

// errPut marks put's own error so that it is returned as is.
var errPut = errors.New("put")

type putError struct{ err error }

func (e putError) Error() string   { return e.err.Error() }
func (e putError) Unwrap() []error { return []error{e.err, errPut} }
func unwrapPut(err error) (error, bool) {
	var pe putError
	if errors.As(err, &pe) {
		return pe.err, true
	}
	return err, false
}

// explain turns a fatal answer into a message that names the fix.
func (s *Source) explain(err error) error {
	if e, ok := unwrapPut(err); ok {
		return e
	}
	var se *fetch.StatusError
	if errors.As(err, &se) && se.Fatal() {
		return fmt.Errorf("kaggle: %w (check the credentials in %s; a new token comes from kaggle.com > Settings > API)", err, s.creds.From)
	}
	return err
}

// datasets returns the explicit datasets, then the search results, up to
// max_datasets, without duplicates, dropping those outside the license
// allow-list.
func (s *Source) datasets(ctx context.Context) ([]Dataset, error) {
	var out []Dataset
	seen := map[string]bool{}
	add := func(d Dataset) {
		if seen[d.Ref] || len(out) >= s.cfg.MaxDatasets {
			return
		}
		seen[d.Ref] = true
		if !sources.LicenseAllowed(d.LicenseName, s.opts.Licenses) {
			s.log.Info("skip dataset: license not allowed", "source", "kaggle", "dataset", d.Ref, "license", d.LicenseName)
			return
		}
		out = append(out, d)
	}
	for _, ref := range s.cfg.Datasets {
		var d Dataset
		if err := s.getJSON(ctx, s.base+"/datasets/view/"+escapeRef(ref), &d); err != nil {
			if s.stops(err) {
				return nil, s.explain(err)
			}
			s.log.Warn("skip dataset", "source", "kaggle", "dataset", ref, "err", err)
			continue
		}
		if d.Ref == "" {
			d.Ref = ref
		}
		add(d)
	}
	if s.query == "" {
		return out, nil
	}
	found := 0
	for page := 1; page <= s.cfg.MaxPages && len(out) < s.cfg.MaxDatasets; page++ {
		var list []Dataset
		err := s.getJSON(ctx, s.searchURL(page), &list)
		var bad *malformedError
		switch {
		case err == nil:
		case errors.As(err, &bad):
			s.log.Warn("skip malformed search page", "source", "kaggle", "query", s.query, "page", page, "err", err)
			continue
		case s.stops(err):
			return nil, s.explain(err)
		case page == 1 && len(out) == 0:
			return nil, fmt.Errorf("kaggle: search %q: %w", s.query, err)
		default:
			s.log.Warn("stop search", "source", "kaggle", "query", s.query, "page", page, "err", err)
			return out, nil
		}
		if len(list) == 0 {
			break
		}
		for _, d := range list {
			if d.Ref == "" || !strings.Contains(d.Ref, "/") {
				s.log.Warn("skip search result without owner/slug ref", "source", "kaggle", "title", d.Title)
				continue
			}
			found++
			add(d)
		}
	}
	if found == 0 && len(s.cfg.Datasets) == 0 {
		s.log.Warn("no datasets found", "source", "kaggle", "query", s.query)
	}
	return out, nil
}

func (s *Source) searchURL(page int) string {
	q := url.Values{}
	q.Set("search", s.query)
	q.Set("page", strconv.Itoa(page))
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("group", "public")
	set("sortBy", s.cfg.Sort)
	set("filetype", s.cfg.FileType)
	set("license", s.cfg.License)
	set("user", s.cfg.User)
	set("tagids", strings.Join(s.cfg.Tags, ","))
	if n, _ := sources.ParseSize(s.cfg.MinSize); n > 0 {
		q.Set("minSize", strconv.FormatInt(n, 10))
	}
	if n, _ := sources.ParseSize(s.cfg.MaxSize); n > 0 {
		q.Set("maxSize", strconv.FormatInt(n, 10))
	}
	return s.base + "/datasets/list?" + q.Encode()
}

// files lists a dataset's files, following page tokens.
func (s *Source) files(ctx context.Context, d Dataset) ([]DatasetFile, error) {
	var out []DatasetFile
	token := ""
	for range 100 {
		q := url.Values{}
		if d.CurrentVersionNumber > 0 {
			q.Set("datasetVersionNumber", strconv.Itoa(d.CurrentVersionNumber))
		}
		if token != "" {
			q.Set("pageToken", token)
		}
		u := s.base + "/datasets/list/" + escapeRef(d.Ref)
		if len(q) > 0 {
			u += "?" + q.Encode()
		}
		var fl FileList
		if err := s.getJSON(ctx, u, &fl); err != nil {
			return nil, fmt.Errorf("list files: %w", err)
		}
		if fl.ErrorMessage != nil && *fl.ErrorMessage != "" {
			return nil, fmt.Errorf("list files: %s", *fl.ErrorMessage)
		}
		out = append(out, fl.DatasetFiles...)
		if fl.NextPageToken == "" || fl.NextPageToken == token {
			return out, nil
		}
		token = fl.NextPageToken
	}
	return out, nil
}

func (s *Source) getJSON(ctx context.Context, u string, v any) error {
	resp, err := s.client.Get(ctx, u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(io.LimitReader(resp.Body, 64<<20))
	if err := dec.Decode(v); err != nil {
		return &malformedError{url: u, err: err}
	}
	return nil
}

// malformedError is an answer that is not the JSON the API documents.
type malformedError struct {
	url string
	err error
}

func (e *malformedError) Error() string {
	return fmt.Sprintf("GET %s: malformed answer: %v", e.url, e.err)
}
func (e *malformedError) Unwrap() error { return e.err }

func (s *Source) provenance(d Dataset, file string) schemas.Source {
	u := d.URL
	if u == "" {
		u = "https://www.kaggle.com/datasets/" + d.Ref
	}
	ver := ""
	if d.CurrentVersionNumber > 0 {
		ver = strconv.Itoa(d.CurrentVersionNumber)
	}
	return schemas.Source{
		Kind:    sources.KindKaggle,
		Ref:     d.Ref + "/" + file,
		URL:     u,
		License: sources.NormalizeLicense(d.LicenseName),
		Version: ver,
		Title:   d.Title,
	}
}

// collectDataset downloads a dataset's archive (or reuses the cached one)
// and puts its files.
func (s *Source) collectDataset(ctx context.Context, d Dataset, put func(sources.Item) error) error {
	zipPath, cleanup, err := s.download(ctx, d)
	if err != nil {
		return err
	}
	defer cleanup()
	f, err := os.Open(zipPath)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	head := make([]byte, 4)
	if _, err := f.ReadAt(head, 0); err != nil || string(head) != "PK\x03\x04" && string(head) != "PK\x05\x06" {
		// A single file served as is.
		files, lerr := s.files(ctx, d)
		name := path.Base(d.Ref)
		if lerr == nil && len(files) == 1 {
			name = files[0].Name
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := put(sources.Item{Name: path.Base(name), Body: io.NewSectionReader(f, 0, st.Size()), Size: st.Size(), Source: s.provenance(d, name)}); err != nil {
			return putError{err}
		}
		return nil
	}
	skipped, err := sources.EachZip(f, st.Size(), s.opts.Archive, func(e sources.Entry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := put(sources.Item{Name: path.Base(e.Path), Body: e.Body, Size: e.Size, Source: s.provenance(d, e.Path)}); err != nil {
			return putError{err}
		}
		return nil
	})
	for _, sk := range skipped {
		s.log.Warn("skip archive entry", "source", "kaggle", "dataset", d.Ref, "entry", sk.Path, "reason", sk.Reason)
	}
	if err != nil {
		return err
	}
	return nil
}

// download fetches a dataset's archive to a file, checking its length
// against Content-Length, and returns the file's path. With a cache dir,
// a finished archive is reused and a cut one (<final>.part) is resumed
// with a Range request.
func (s *Source) download(ctx context.Context, d Dataset) (string, func(), error) {
	noop := func() {}
	u := s.base + "/datasets/download/" + escapeRef(d.Ref)
	if d.CurrentVersionNumber > 0 {
		u += "?datasetVersionNumber=" + strconv.Itoa(d.CurrentVersionNumber)
	}
	if s.opts.CacheDir == "" {
		tmp, err := os.CreateTemp("", "kaggle-*.part")
		if err != nil {
			return "", noop, err
		}
		tmp.Close()
		remove := func() { os.Remove(tmp.Name()) }
		if err := s.fetchTo(ctx, u, tmp.Name(), false); err != nil {
			remove()
			return "", noop, fmt.Errorf("download %s: %w", d.Ref, err)
		}
		return tmp.Name(), remove, nil
	}
	final := filepath.Join(s.opts.CacheDir, "kaggle", filepath.FromSlash(d.Ref), fmt.Sprintf("v%d.zip", d.CurrentVersionNumber))
	if d.CurrentVersionNumber > 0 {
		if _, err := os.Stat(final); err == nil {
			return final, noop, nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return "", noop, err
	}
	part := final + ".part"
	if err := s.fetchTo(ctx, u, part, d.CurrentVersionNumber > 0); err != nil {
		return "", noop, fmt.Errorf("download %s: %w", d.Ref, err)
	}
	if err := os.Rename(part, final); err != nil {
		return "", noop, err
	}
	return final, noop, nil
}

// fetchTo writes url's content to path. With resume set and a partial
// file there, it asks for the rest (Range) and appends when the server
// agrees (206); otherwise it starts over. A body shorter than announced is
// an error (the partial file stays for the next try when resuming).
func (s *Source) fetchTo(ctx context.Context, u, path string, resume bool) error {
	var have int64
	if st, err := os.Stat(path); err == nil && resume {
		have = st.Size()
	}
	var hdr http.Header
	if have > 0 {
		hdr = http.Header{"Range": {fmt.Sprintf("bytes=%d-", have)}}
	}
	resp, err := s.client.GetWith(ctx, u, hdr)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if have > 0 && resp.StatusCode == http.StatusPartialContent {
		flags = os.O_WRONLY | os.O_APPEND
		s.log.Info("resume download", "source", "kaggle", "url", u, "from", have)
	} else {
		have = 0
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, resp.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		err = fmt.Errorf("truncated: got %d of %d bytes (%v)", have+n, have+resp.ContentLength, err)
	} else if errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("truncated after %d bytes: %w", have+n, err)
	}
	if err != nil && !resume {
		os.Remove(path)
	}
	return err
}

// escapeRef escapes the parts of owner/slug for a URL path.
func escapeRef(ref string) string {
	owner, slug, _ := strings.Cut(ref, "/")
	return url.PathEscape(owner) + "/" + url.PathEscape(slug)
}
