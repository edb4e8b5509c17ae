package kaggle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"synth/schemas"
	"synth/sources"
	"synth/sources/fetch"
)

// CompetitionLicense is the license recorded for competition data: the
// competition's rules, at https://www.kaggle.com/competitions/<slug>/rules.
const CompetitionLicense = "LicenseRef-Kaggle-Competition-Rules"

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
	// so a rerun does not download them again, and resumes cut ones. Empty:
	// a temp file, removed.
	CacheDir string
	Contact  string // sent in the User-Agent
	// IdleTimeout abandons a request that receives nothing for this long
	// (0: fetch.DefaultIdleTimeout); a download then resumes.
	IdleTimeout time.Duration
	Log         *slog.Logger
	Getenv      func(string) string // nil: os.Getenv
	HTTP        *http.Client        // nil: the fetch default
	// Since, if set, keeps only datasets last updated at or after it.
	Since time.Time
}

// Source is the kaggle:QUERY, kaggle:OWNER/DATASET and
// kaggle:competition/SLUG source.
type Source struct {
	query       string
	competition string // the slug, for kaggle:competition/SLUG
	dataset     string // owner/slug[@N], for kaggle:OWNER/DATASET
	opts        Options
	cfg         sources.KaggleConfig
	base        string
	legacy      string
	legacyOnly  bool // the current API refused the legacy key
	creds       Credentials
	client      *fetch.Client
	log         *slog.Logger
	now         func() time.Time
}

// New returns the source for a search query, for one dataset when query
// is OWNER/DATASET (the name in https://www.kaggle.com/datasets/OWNER/DATASET),
// or for a competition's data when query is competition/SLUG. Without
// credentials it goes on anonymously, as Kaggle's CLI and kagglehub do:
// public datasets download; what Kaggle refuses without them (search,
// competitions, private data) stops with a message naming where Kaggle
// issues tokens.
func New(query string, opts Options) (*Source, error) {
	cfg := opts.Config
	creds, err := LoadCredentials(cfg.Credentials, opts.Getenv)
	switch {
	case errors.Is(err, ErrNoCredentials):
		creds = Credentials{Kind: KindNone, From: err.Error()}
	case err != nil:
		return nil, err
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.LegacyURL == "" {
		cfg.LegacyURL = DefaultLegacyURL
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
	c.Header.Set("User-Agent", fetch.UserAgent(opts.Contact))
	c.IdleTimeout = opts.IdleTimeout
	if opts.HTTP != nil {
		c.HTTP = opts.HTTP
	}
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	s := &Source{query: query, opts: opts, cfg: cfg, base: strings.TrimRight(cfg.BaseURL, "/"), legacy: strings.TrimRight(cfg.LegacyURL, "/"),
		creds: creds, client: c, log: log, now: time.Now}
	if slug, ok := strings.CutPrefix(query, "competition/"); ok {
		if slug == "" || strings.Contains(slug, "/") {
			return nil, fmt.Errorf("kaggle:competition/%s: want kaggle:competition/SLUG, the name in https://www.kaggle.com/competitions/SLUG", slug)
		}
		s.competition = slug
	} else if d, ok, err := parseDatasetRef(query); err != nil {
		return nil, err
	} else if ok {
		s.dataset, s.query = d.String(), "" // one dataset; nothing is searched
	}
	for _, ref := range cfg.Datasets {
		if _, ok, err := parseDatasetRef(ref); err != nil || !ok {
			return nil, fmt.Errorf("sources.kaggle.datasets: %q: want OWNER/DATASET, OWNER/DATASET@N or OWNER/DATASET/versions/N%s", ref, errSuffix(err))
		}
	}
	c.Authorize = func(r *http.Request) { s.creds.authorize(r) }
	return s, nil
}

func errSuffix(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}

// Credentials returns the credentials the source uses.
func (s *Source) Credentials() Credentials { return s.creds }

// Kind returns "kaggle".
func (s *Source) Kind() string { return sources.KindKaggle }

// set is a dataset or a competition: what is downloaded as one archive.
type set struct {
	ref         string // owner/slug, or competition/slug
	title, url  string
	license     string
	version     int
	competition string // the slug, for a competition
}

func datasetSet(d Dataset) set {
	u := d.URL
	if u == "" || !strings.Contains(u, "/datasets/") {
		u = "https://www.kaggle.com/datasets/" + d.Ref
	}
	return set{ref: d.Ref, title: d.Title, url: u, license: sources.NormalizeLicense(d.LicenseName), version: d.CurrentVersionNumber}
}

// Collect searches (or takes the competition), then for each dataset (in
// the API's order, up to max_datasets, explicit datasets first) downloads
// its archive and puts each safe file in it. A dataset that fails (a
// server error after retries, a download that could not be finished, a
// broken archive) is logged and skipped; 401 and 403 stop the source with
// a message naming the credentials, and an answer synth cannot read stops
// it naming the endpoint.
func (s *Source) Collect(ctx context.Context, put func(sources.Item) error) error {
	if err := s.prepare(ctx); err != nil {
		return err
	}
	sets, err := s.sets(ctx)
	if err != nil {
		return err
	}
	for _, d := range sets {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.collectSet(ctx, d, put); err != nil {
			if s.stops(err) || s.single() {
				return s.explain(d, err)
			}
			s.log.Warn("skip dataset", "source", "kaggle", "dataset", d.ref, "err", err)
		}
	}
	return nil
}

// Plan lists the files of the datasets Collect would download, with their
// sizes and licenses, downloading nothing.
func (s *Source) Plan(ctx context.Context) ([]sources.Planned, error) {
	if err := s.prepare(ctx); err != nil {
		return nil, err
	}
	sets, err := s.sets(ctx)
	if err != nil {
		return nil, err
	}
	var out []sources.Planned
	for _, d := range sets {
		files, err := s.files(ctx, d)
		if err != nil {
			if s.stops(err) || s.single() {
				return nil, s.explain(d, err)
			}
			s.log.Warn("skip dataset", "source", "kaggle", "dataset", d.ref, "err", err)
			continue
		}
		for _, f := range files {
			if s.opts.MaxFileBytes > 0 && f.TotalBytes > s.opts.MaxFileBytes || len(s.cfg.Files) > 0 && d.competition == "" && !s.wanted(f.Name) {
				continue
			}
			out = append(out, sources.Planned{Name: path.Base(f.Name), Size: f.TotalBytes, Source: s.provenance(d, f.Name)})
		}
	}
	return out, nil
}

// single reports a source that names one dataset or competition: its
// failure is the source's, never a skip that leaves an empty success.
func (s *Source) single() bool { return s.dataset != "" || s.competition != "" }

// prepare refreshes an OAuth access token when it is due.
func (s *Source) prepare(ctx context.Context) error {
	hc := s.client.HTTP
	return s.creds.accessToken(ctx, s.base, hc, s.now())
}

// stops reports an error that ends the whole source.
func (s *Source) stops(err error) bool {
	var se *fetch.StatusError
	var shape *ShapeError
	var api *APIError
	return errors.As(err, &se) && se.Fatal() || errors.As(err, &shape) || errors.As(err, &api) && (api.Code == 401 || api.Code == 403) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, errPut)
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
func (s *Source) explain(d set, err error) error {
	if e, ok := unwrapPut(err); ok {
		return e
	}
	code := 0
	var se *fetch.StatusError
	var api *APIError
	if errors.As(err, &se) {
		code = se.Code
	} else if errors.As(err, &api) {
		code = api.Code
	}
	switch {
	case code == 403 && d.competition != "":
		return fmt.Errorf("kaggle: competition %s: %w\n  accept the competition's rules at https://www.kaggle.com/competitions/%s/rules (as the account of the %s), then run again",
			d.competition, err, d.competition, s.creds.Describe())
	case (code == 401 || code == 403) && s.creds.Anonymous():
		return fmt.Errorf("kaggle: %w\n  Kaggle refused an anonymous request: only public datasets download without credentials (%s)", err, s.creds.From)
	case code == 401 || code == 403:
		return fmt.Errorf("kaggle: %w\n  the %s was refused; a new API token comes from %s (API > Generate New Token)", err, s.creds.Describe(), SettingsURL)
	case code == 404 && d.competition == "" && d.ref != "":
		return fmt.Errorf("kaggle: dataset %s: %w\n  check the name: it is OWNER/DATASET as in https://www.kaggle.com/datasets/OWNER/DATASET", d.ref, err)
	case d.ref != "":
		return fmt.Errorf("kaggle: %s: %w", d.ref, err)
	}
	return fmt.Errorf("kaggle: %w", err)
}

// sets returns the competition, or the explicit datasets, then the search
// results, up to max_datasets, without duplicates, dropping those outside
// the license allow-list.
func (s *Source) sets(ctx context.Context) ([]set, error) {
	if s.competition != "" {
		return s.competitionSet(ctx)
	}
	var out []set
	seen := map[string]bool{}
	add := func(d Dataset) {
		if seen[d.Ref] || len(out) >= s.cfg.MaxDatasets {
			return
		}
		seen[d.Ref] = true
		if !s.opts.Since.IsZero() && !d.LastUpdated.IsZero() && d.LastUpdated.Before(s.opts.Since) {
			s.log.Info("skip dataset: not updated since sources.since", "source", "kaggle", "dataset", d.Ref, "updated", d.LastUpdated.Format(time.DateOnly))
			return
		}
		if !sources.LicenseAllowed(d.LicenseName, s.opts.Licenses) {
			s.log.Info("skip dataset: license not allowed", "source", "kaggle", "dataset", d.Ref, "license", d.LicenseName)
			return
		}
		out = append(out, datasetSet(d))
	}
	refs := s.cfg.Datasets
	if s.dataset != "" {
		refs = []string{s.dataset}
	}
	for _, spec := range refs {
		pin, _, _ := parseDatasetRef(spec) // checked by New
		ref := pin.ref
		raw, endpoint, err := s.do(ctx, viewCall(ref))
		var d Dataset
		if err == nil {
			d, err = decodeDataset(endpoint, raw)
		}
		if err == nil && pin.version > 0 {
			d, err = pinVersion(d, pin)
		}
		if err != nil {
			if s.stops(err) || s.single() {
				return nil, s.explain(set{ref: ref}, err)
			}
			s.log.Warn("skip dataset", "source", "kaggle", "dataset", ref, "err", err)
			continue
		}
		if d.Ref == "" || pin.version > 0 {
			d.Ref = ref
		}
		if s.dataset != "" && !sources.LicenseAllowed(d.LicenseName, s.opts.Licenses) {
			return nil, fmt.Errorf("kaggle: dataset %s: its license %q is not in the --license list", ref, d.LicenseName)
		}
		add(d)
	}
	if s.query == "" {
		return out, nil
	}
	found := 0
	token := ""
	for page := 1; page <= s.cfg.MaxPages && len(out) < s.cfg.MaxDatasets; page++ {
		raw, endpoint, err := s.do(ctx, searchCall(s.query, page, token, s.filter()))
		var list []Dataset
		var next string
		if err == nil {
			list, next, err = decodeSearch(endpoint, raw)
		}
		switch {
		case err == nil:
		case s.stops(err):
			return nil, s.explain(set{}, err)
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
		if next == "" && token != "" {
			break // the last page of a paged answer
		}
		token = next
	}
	if found == 0 && len(s.cfg.Datasets) == 0 {
		s.log.Warn("no datasets found", "source", "kaggle", "query", s.query)
	}
	return out, nil
}

// pinVersion takes the pinned version in place of the current one. A
// version newer than the current one does not exist yet: an error naming
// both.
func pinVersion(d Dataset, pin datasetRef) (Dataset, error) {
	if d.CurrentVersionNumber > 0 && pin.version > d.CurrentVersionNumber {
		return d, fmt.Errorf("version %d of %s does not exist: its newest is %d", pin.version, pin.ref, d.CurrentVersionNumber)
	}
	d.CurrentVersionNumber = pin.version
	return d, nil
}

func (s *Source) filter() searchFilter {
	f := searchFilter{sort: s.cfg.Sort, fileType: s.cfg.FileType, license: s.cfg.License, user: s.cfg.User, tags: strings.Join(s.cfg.Tags, ",")}
	f.minSize, _ = sources.ParseSize(s.cfg.MinSize)
	f.maxSize, _ = sources.ParseSize(s.cfg.MaxSize)
	return f
}

// competitionSet reads the competition's title; its files are listed and
// downloaded like a dataset's.
func (s *Source) competitionSet(ctx context.Context) ([]set, error) {
	slug := s.competition
	d := set{ref: "competition/" + slug, title: slug, url: "https://www.kaggle.com/competitions/" + slug, license: CompetitionLicense, competition: slug}
	if !sources.LicenseAllowed(d.license, s.opts.Licenses) {
		return nil, fmt.Errorf("kaggle: competition %s: its data is under the competition's rules (%s), which --license does not allow", slug, CompetitionLicense)
	}
	if !s.legacyOnly {
		raw, endpoint, err := s.do(ctx, competitionCall(slug))
		if err == nil {
			var c Competition
			if c, err = decodeCompetition(endpoint, raw); err == nil && c.Title != "" {
				d.title = c.Title
			}
		}
		switch {
		case err == nil:
		case isStatus(err, http.StatusUnauthorized) && !s.creds.Bearer():
			// The legacy API has no call for the title: go on without it.
			s.legacyOnly = true
			s.log.Info("the current API refused the legacy key; using the legacy routes", "source", "kaggle", "legacy", s.legacy)
		case s.stops(err):
			return nil, s.explain(d, err)
		default:
			return nil, fmt.Errorf("kaggle: competition %s: %w", slug, err)
		}
	}
	return []set{d}, nil
}

// files lists a dataset's or competition's files, following page tokens.
func (s *Source) files(ctx context.Context, d set) ([]DatasetFile, error) {
	var out []DatasetFile
	token := ""
	for range 100 {
		c := filesCall(d.ref, d.version, token)
		if d.competition != "" {
			c = competitionFilesCall(d.competition, token)
		}
		raw, endpoint, err := s.do(ctx, c)
		var page []DatasetFile
		var next string
		if err == nil {
			page, next, err = decodeFiles(endpoint, raw)
		}
		if err != nil {
			return nil, fmt.Errorf("list files: %w", err)
		}
		out = append(out, page...)
		if next == "" || next == token {
			return out, nil
		}
		token = next
	}
	return out, nil
}

func (s *Source) provenance(d set, file string) schemas.Source {
	ver := ""
	if d.version > 0 {
		ver = strconv.Itoa(d.version)
	}
	return schemas.Source{
		Kind:    sources.KindKaggle,
		Ref:     d.ref + "/" + file,
		URL:     d.url,
		License: d.license,
		Version: ver,
		Title:   d.title,
	}
}

// collectSet puts a set's files: from kagglehub's cache when it holds that
// version, else from its archive, downloaded (or reused from synth's
// cache); with sources.kaggle.files set, only the dataset's files that
// match, downloaded one at a time.
func (s *Source) collectSet(ctx context.Context, d set, put func(sources.Item) error) error {
	if ok, err := s.fromHubCache(ctx, d, put); ok {
		return err
	}
	if len(s.cfg.Files) > 0 && d.competition == "" {
		return s.collectFiles(ctx, d, put)
	}
	zipPath, cleanup, err := s.download(ctx, d, downloadCall(d.ref, d.version), fmt.Sprintf("v%d.zip", d.version))
	if err != nil {
		return err
	}
	defer cleanup()
	// A dataset of one file may be served as it is, not zipped: its name
	// is then the listing's.
	name := func() string {
		if files, err := s.files(ctx, d); err == nil && len(files) == 1 {
			return files[0].Name
		}
		return path.Base(d.ref)
	}
	return s.putDownload(ctx, d, zipPath, name, put)
}

// collectFiles downloads the files of d whose path matches
// sources.kaggle.files. None matching is the source's error when it names
// one dataset, and a skip otherwise.
func (s *Source) collectFiles(ctx context.Context, d set, put func(sources.Item) error) error {
	files, err := s.files(ctx, d)
	if err != nil {
		return err
	}
	n := 0
	for _, f := range files {
		if !s.wanted(f.Name) {
			continue
		}
		n++
		if s.opts.MaxFileBytes > 0 && f.TotalBytes > s.opts.MaxFileBytes {
			s.log.Info("skip file: larger than max_file_bytes", "source", "kaggle", "dataset", d.ref, "file", f.Name, "bytes", f.TotalBytes)
			continue
		}
		cached := path.Join(fmt.Sprintf("v%d", d.version), "files", f.Name)
		p, cleanup, err := s.download(ctx, d, downloadFileCall(d.ref, d.version, f.Name), cached)
		if errors.Is(err, errUnsafeName) {
			s.log.Warn("skip file: its name leads out of the cache", "source", "kaggle", "dataset", d.ref, "file", f.Name)
			continue
		}
		if err != nil {
			return fmt.Errorf("file %s: %w", f.Name, err)
		}
		err = s.putDownload(ctx, d, p, func() string { return f.Name }, put)
		cleanup()
		if err != nil {
			return err
		}
	}
	if n == 0 {
		return fmt.Errorf("no file of %s matches sources.kaggle.files %q (it has %d files)", d.ref, s.cfg.Files, len(files))
	}
	return nil
}

// wanted reports whether a dataset file's path matches sources.kaggle.files.
func (s *Source) wanted(name string) bool {
	for _, g := range s.cfg.Files {
		if sources.MatchGlob(g, name) {
			return true
		}
	}
	return false
}

// putDownload puts a downloaded file: each safe entry of a zip, or the
// file itself under name() when it is not a zip (Kaggle serves small files
// as they are and zips large ones).
func (s *Source) putDownload(ctx context.Context, d set, file string, name func() string, put func(sources.Item) error) error {
	f, err := os.Open(file)
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
		n := name()
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := put(sources.Item{Name: path.Base(n), Body: io.NewSectionReader(f, 0, st.Size()), Size: st.Size(), Source: s.provenance(d, n)}); err != nil {
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
		s.log.Warn("skip archive entry", "source", "kaggle", "dataset", d.ref, "entry", sk.Path, "reason", sk.Reason)
	}
	return err
}
