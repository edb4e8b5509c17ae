package kaggle

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

const (
	testUser = "synth-test"
	testKey  = "0123456789abcdef"
)

// fakeKaggle serves api/v1 the way Kaggle does, with the failures the
// tests need: a 429 before the first search page, a malformed second
// page, three 500s before bob's download, a bomb in carol's archive and a
// cut download for erin.
type fakeKaggle struct {
	t          *testing.T
	mu         sync.Mutex
	searches   int
	bobTries   int
	status     int // if set, every answer has this status
	downloads  []string
	searchURLs []string
	cutAlice   int      // cut alice's archive halfway this many times
	ranges     []string // Range headers of archive requests
}

func newFake(t *testing.T) (*fakeKaggle, *httptest.Server) {
	f := &fakeKaggle{t: t}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeKaggle) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.URL.Path == "/api/v1/datasets/list" {
		f.searches++
	}
	if f.status != 0 {
		w.WriteHeader(f.status)
		fmt.Fprint(w, `{"code":401,"message":"Unauthenticated"}`)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/storage/") {
		// Kaggle answers a download with a redirect to signed storage.
		f.ranges = append(f.ranges, r.Header.Get("Range"))
		f.download(w, r, strings.TrimPrefix(r.URL.Path, "/storage/"))
		return
	}
	if u, k, ok := r.BasicAuth(); !ok || u != testUser || k != testKey {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	p := strings.TrimPrefix(r.URL.Path, "/api/v1")
	switch {
	case p == "/datasets/list":
		f.searchURLs = append(f.searchURLs, r.URL.RawQuery)
		switch r.URL.Query().Get("page") {
		case "1":
			if f.searches == 1 {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			f.file(w, "datasets_list_page1.json")
		case "2":
			f.file(w, "datasets_list_page2_malformed.json")
		case "3":
			f.file(w, "datasets_list_page3.json")
		default:
			fmt.Fprint(w, "[]")
		}
	case strings.HasPrefix(p, "/datasets/list/"):
		ref := strings.TrimPrefix(p, "/datasets/list/")
		if ref == "alice/titanic-survival" {
			f.file(w, "files_alice_titanic-survival.json")
			return
		}
		json.NewEncoder(w).Encode(FileList{DatasetFiles: []DatasetFile{{Ref: "data.csv", Name: "data.csv", TotalBytes: 10}}})
	case strings.HasPrefix(p, "/datasets/view/"):
		ref := strings.TrimPrefix(p, "/datasets/view/")
		json.NewEncoder(w).Encode(Dataset{Ref: ref, Title: "Viewed", LicenseName: "CC0: Public Domain", CurrentVersionNumber: 7})
	case strings.HasPrefix(p, "/datasets/download/"):
		ref := strings.TrimPrefix(p, "/datasets/download/")
		f.downloads = append(f.downloads, ref+"?"+r.URL.RawQuery)
		if ref == "alice/titanic-survival" {
			http.Redirect(w, r, "/storage/"+ref, http.StatusFound)
			return
		}
		f.download(w, r, ref)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeKaggle) file(w http.ResponseWriter, name string) {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.t.Error(err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// archives are built once per test binary: the bomb takes a moment.
var (
	archivesMu sync.Mutex
	archives   = map[string][]byte{}
)

func archive(t *testing.T, ref string, build func() []byte) []byte {
	archivesMu.Lock()
	defer archivesMu.Unlock()
	if b, ok := archives[ref]; ok {
		return b
	}
	b := build()
	archives[ref] = b
	return b
}

func (f *fakeKaggle) download(w http.ResponseWriter, r *http.Request, ref string) {
	png, _ := os.ReadFile(filepath.Join("..", "testdata", "files", "red.png"))
	jpeg, _ := os.ReadFile(filepath.Join("..", "testdata", "files", "photo.jpeg"))
	var body []byte
	switch ref {
	case "alice/titanic-survival":
		body = zipOf(f.t, []zipEntry{
			{name: "train.csv", body: "PassengerId,Survived,Age\n1,0,22\n2,1,38\n3,1,26\n"},
			{name: "images/cat.png", body: string(png)},
			{name: "../../evil.csv", body: "a,b\n1,2\n"},
			{name: "/etc/abs.txt", body: "absolute\n"},
			{name: "link", body: "/etc/passwd", symlink: true},
			{name: "empty.txt"},
			{name: "notes.txt", body: string(jpeg)}, // its extension lies
		})
	case "bob/store-sales":
		f.bobTries++
		if f.bobTries <= 3 {
			http.Error(w, "backend error", http.StatusInternalServerError)
			return
		}
		body = zipOf(f.t, []zipEntry{{name: "sales.csv", body: "day,store,units\n1,A,3\n1,B,4\n2,A,5\n"}})
	case "carol/compressed-logs":
		body = archive(f.t, ref, func() []byte {
			return zipOf(f.t, []zipEntry{
				{name: "bomb.log", body: strings.Repeat("\x00", 8<<20)},
				{name: "readme.txt", body: "Logs of a web server, one line per request.\n"},
			})
		})
	case "dave/weather-stations":
		body = zipOf(f.t, []zipEntry{{name: "stations.tsv", body: "id\tname\ttemp\n1\tOslo\t3.5\n2\tRome\t18.0\n"}})
	case "erin/cut-download":
		w.Header().Set("Content-Length", "5000")
		w.Header().Set("Content-Type", "application/zip")
		w.Write([]byte("PK\x03\x04 only the start"))
		return
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	if ref == "alice/titanic-survival" && f.cutAlice > 0 {
		f.cutAlice--
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.Write(body[:len(body)/2])
		return
	}
	http.ServeContent(w, r, "archive.zip", time.Time{}, bytes.NewReader(body))
}

type zipEntry struct {
	name, body string
	symlink    bool
}

func zipOf(t *testing.T, entries []zipEntry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.symlink {
			h.SetMode(os.ModeSymlink | 0o777)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, e.body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testEnv(key string) string {
	switch key {
	case "KAGGLE_USERNAME":
		return testUser
	case "KAGGLE_KEY":
		return testKey
	}
	return ""
}

func newTestSource(t *testing.T, base string, cfg sources.KaggleConfig, opts Options) (*Source, *bytes.Buffer) {
	t.Helper()
	cfg.BaseURL = base + "/api/v1"
	if cfg.Retries == 0 {
		cfg.Retries = 3
	}
	opts.Config = cfg
	if opts.Getenv == nil {
		opts.Getenv = testEnv
	}
	var logs bytes.Buffer
	opts.Log = slog.New(slog.NewTextHandler(&logs, nil))
	s, err := New("titanic", opts)
	if err != nil {
		t.Fatal(err)
	}
	s.client.Limiter = nil
	s.client.Backoff = func(int) time.Duration { return 0 }
	return s, &logs
}

type got struct {
	name, ref, license, version, title, body string
}

func collect(t *testing.T, s *Source) []got {
	t.Helper()
	var out []got
	err := s.Collect(context.Background(), func(it sources.Item) error {
		b, err := io.ReadAll(it.Body)
		if err != nil {
			return err
		}
		out = append(out, got{it.Name, it.Source.Ref, it.Source.License, it.Source.Version, it.Source.Title, string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCollect(t *testing.T) {
	fake, srv := newFake(t)
	s, logs := newTestSource(t, srv.URL, sources.KaggleConfig{Tags: []string{"13302"}, FileType: "csv", MinSize: "1KB"}, Options{})
	items := collect(t, s)
	var refs []string
	for _, it := range items {
		refs = append(refs, it.ref)
	}
	want := []string{
		"alice/titanic-survival/train.csv",
		"alice/titanic-survival/images/cat.png",
		"alice/titanic-survival/empty.txt",
		"alice/titanic-survival/notes.txt",
		"bob/store-sales/sales.csv",
		"carol/compressed-logs/readme.txt",
		"dave/weather-stations/stations.tsv",
	}
	if !slices.Equal(refs, want) {
		t.Errorf("collected\n%v\nwant\n%v", refs, want)
	}
	if it := items[0]; it.license != "CC0-1.0" || it.version != "3" || it.title != "Titanic Survival" || it.name != "train.csv" {
		t.Errorf("provenance of %s = %+v", it.ref, it)
	}
	if it := items[4]; it.license != "CC-BY-4.0" {
		t.Errorf("bob's license = %q, want CC-BY-4.0", it.license)
	}
	for _, msg := range []string{
		"../../evil.csv", "unsafe path", "/etc/abs.txt", "link", "not a regular file",
		"bomb.log", "compression ratio", "page=2", "erin/cut-download", "truncated",
	} {
		if !strings.Contains(logs.String(), msg) {
			t.Errorf("log does not mention %q:\n%s", msg, logs)
		}
	}
	q := fake.searchURLs[0]
	for _, part := range []string{"search=titanic", "tagids=13302", "filetype=csv", "minSize=1000", "group=public"} {
		if !strings.Contains(q, part) {
			t.Errorf("search query %q lacks %s", q, part)
		}
	}
	if !slices.Contains(fake.downloads, "alice/titanic-survival?datasetVersionNumber=3") {
		t.Errorf("downloads = %v", fake.downloads)
	}
}

func TestCollectStore(t *testing.T) {
	_, srv := newFake(t)
	s, _ := newTestSource(t, srv.URL, sources.KaggleConfig{}, Options{})
	st, err := sources.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	byRef := map[string]schemas.File{}
	stats, err := sources.Collect(context.Background(), s, st, sources.Limits{}, slog.New(slog.DiscardHandler), func(f schemas.File) error {
		byRef[f.Source.Ref] = f
		for _, src := range f.Sources {
			byRef[src.Ref] = f
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Skipped["empty"] != 1 {
		t.Errorf("stats = %+v, want one empty file skipped", stats)
	}
	if f := byRef["alice/titanic-survival/notes.txt"]; f.Type != "jpeg" {
		t.Errorf("notes.txt (a jpeg) typed %q", f.Type)
	}
	if f := byRef["alice/titanic-survival/images/cat.png"]; f.Preview == nil || f.Preview.Width != 40 {
		t.Errorf("cat.png = %+v", f)
	}
	if f := byRef["dave/weather-stations/stations.tsv"]; f.Type != "tsv" || f.Source.URL != "https://www.kaggle.com/datasets/dave/weather-stations" {
		t.Errorf("stations.tsv = %+v", f)
	}
}

func TestLicenseAllowList(t *testing.T) {
	fake, srv := newFake(t)
	s, logs := newTestSource(t, srv.URL, sources.KaggleConfig{}, Options{Licenses: []string{"CC0-1.0", "MIT"}})
	for _, it := range collect(t, s) {
		if it.license != "CC0-1.0" {
			t.Errorf("%s under %s collected", it.ref, it.license)
		}
	}
	for _, d := range fake.downloads {
		if strings.HasPrefix(d, "bob/") || strings.HasPrefix(d, "dave/") {
			t.Errorf("downloaded %s, whose license is not allowed", d)
		}
	}
	if !strings.Contains(logs.String(), "license not allowed") {
		t.Errorf("log does not say why datasets were dropped:\n%s", logs)
	}
}

func TestServerErrorsSkipOnlyTheDataset(t *testing.T) {
	_, srv := newFake(t)
	s, logs := newTestSource(t, srv.URL, sources.KaggleConfig{Retries: 2}, Options{})
	items := collect(t, s)
	for _, it := range items {
		if strings.HasPrefix(it.ref, "bob/") {
			t.Errorf("bob collected after only two retries")
		}
	}
	if len(items) != 6 || !strings.Contains(logs.String(), "500") || !strings.Contains(logs.String(), "after 3 tries") {
		t.Errorf("%d items; log:\n%s", len(items), logs)
	}
}

func TestUnauthorized(t *testing.T) {
	fake, srv := newFake(t)
	fake.status = http.StatusUnauthorized
	dir := t.TempDir()
	cred := filepath.Join(dir, "kaggle.json")
	os.WriteFile(cred, []byte(`{"username":"u","key":"bad"}`), 0o600)
	s, _ := newTestSource(t, srv.URL, sources.KaggleConfig{Credentials: cred}, Options{Getenv: func(string) string { return "" }})
	err := s.Collect(context.Background(), func(sources.Item) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), cred) {
		t.Errorf("Collect = %v, want a 401 naming %s", err, cred)
	}
	if fake.searches != 1 {
		t.Errorf("%d requests after a 401, want 1 (no retry)", fake.searches)
	}
	if _, err := s.Plan(context.Background()); err == nil || !strings.Contains(err.Error(), cred) {
		t.Errorf("Plan = %v", err)
	}
}

func TestCredentials(t *testing.T) {
	dir := t.TempDir()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if _, err := LoadCredentials("", env(map[string]string{"HOME": dir})); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, ".kaggle", "kaggle.json")) {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{not json"), 0o600)
	if _, err := LoadCredentials(bad, env(nil)); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("bad file: %v", err)
	}
	good := filepath.Join(dir, "k", "kaggle.json")
	os.MkdirAll(filepath.Dir(good), 0o700)
	os.WriteFile(good, []byte(`{"username":"ann","key":"abc"}`), 0o600)
	c, err := LoadCredentials("", env(map[string]string{"KAGGLE_CONFIG_DIR": filepath.Dir(good)}))
	if err != nil || c.Username != "ann" || c.From != good {
		t.Errorf("config dir: %+v %v", c, err)
	}
	c, err = LoadCredentials(good, env(map[string]string{"KAGGLE_USERNAME": "env", "KAGGLE_KEY": "k"}))
	if err != nil || c.Username != "env" {
		t.Errorf("env wins: %+v %v", c, err)
	}
}

func TestPlan(t *testing.T) {
	fake, srv := newFake(t)
	s, _ := newTestSource(t, srv.URL, sources.KaggleConfig{Datasets: []string{"zed/extra"}}, Options{})
	plan, err := s.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(fake.downloads) != 0 {
		t.Errorf("a dry run downloaded %v", fake.downloads)
	}
	if len(plan) == 0 || plan[0].Source.Ref != "zed/extra/data.csv" || plan[0].Source.Version != "7" {
		t.Fatalf("plan = %+v", plan)
	}
	var alice []sources.Planned
	for _, p := range plan {
		if strings.HasPrefix(p.Source.Ref, "alice/") {
			alice = append(alice, p)
		}
	}
	if len(alice) != 2 || alice[1].Name != "cat.png" || alice[1].Size != 101 || alice[1].Source.License != "CC0-1.0" {
		t.Errorf("alice's plan = %+v", alice)
	}
}

func TestCache(t *testing.T) {
	fake, srv := newFake(t)
	cache := t.TempDir()
	s, _ := newTestSource(t, srv.URL, sources.KaggleConfig{}, Options{CacheDir: cache})
	first := collect(t, s)
	n := len(fake.downloads)
	second := collect(t, s)
	if len(first) != len(second) {
		t.Errorf("rerun from cache: %d items, first run %d", len(second), len(first))
	}
	if again := len(fake.downloads) - n; again != 1 {
		t.Errorf("rerun downloaded %d archives, want 1 (only the cut one)", again)
	}
	if _, err := os.Stat(filepath.Join(cache, "kaggle", "alice", "titanic-survival", "v3.zip")); err != nil {
		t.Error(err)
	}
}

func TestConformance(t *testing.T) {
	sourcetest.Run(t, func(t *testing.T) sources.Source {
		_, srv := newFake(t)
		s, _ := newTestSource(t, srv.URL, sources.KaggleConfig{}, Options{})
		return s
	}, sourcetest.Options{MinItems: 5, PlanMayDiffer: true})
}

func TestResume(t *testing.T) {
	fake, srv := newFake(t)
	fake.cutAlice = 1
	cache := t.TempDir()
	s, logs := newTestSource(t, srv.URL, sources.KaggleConfig{}, Options{CacheDir: cache})
	for _, it := range collect(t, s) {
		if strings.HasPrefix(it.ref, "alice/") {
			t.Errorf("collected %s from a cut archive", it.ref)
		}
	}
	part := filepath.Join(cache, "kaggle", "alice", "titanic-survival", "v3.zip.part")
	if st, err := os.Stat(part); err != nil || st.Size() == 0 {
		t.Fatalf("no partial download kept: %v", err)
	}
	if !strings.Contains(logs.String(), "truncated") {
		t.Errorf("log does not say the archive was cut:\n%s", logs)
	}
	items := collect(t, s)
	if len(items) == 0 || items[0].ref != "alice/titanic-survival/train.csv" {
		t.Fatalf("after resuming: %v", items)
	}
	if last := fake.ranges[len(fake.ranges)-1]; !strings.HasPrefix(last, "bytes=") {
		t.Errorf("second download sent Range %q, want a resume", last)
	}
	if _, err := os.Stat(part); !os.IsNotExist(err) {
		t.Errorf("partial file left after completion: %v", err)
	}
}

func TestRateLimitConfigured(t *testing.T) {
	s, err := New("x", Options{Config: sources.KaggleConfig{RequestsPerMinute: 12}, Getenv: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if s.client.Limiter == nil || s.client.Limiter.Limit() != 0.2 || s.client.Limiter.Burst() != 1 {
		t.Errorf("limiter = %+v, want 12 per minute", s.client.Limiter)
	}
}
