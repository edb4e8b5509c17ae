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

const testToken = "KGAT_0123456789abcdef"

// fakeKaggle plays Kaggle in one API generation, with the failures the
// tests need: a 429 before the first search page, three 500s before bob's
// download, a bomb in carol's archive and a cut download for erin.
//
// "current": POST /v1/<Service>/<Method> with JSON bodies, Bearer tokens
// only; the legacy routes are gone (404).
// "legacy": GET /api/v1/… with Basic auth; the current API refuses the
// legacy key (401).
type fakeKaggle struct {
	t          *testing.T
	gen        string
	mu         sync.Mutex
	searches   int
	bobTries   int
	status     int // if set, every answer has this status
	downloads  []string
	searchURLs []string // legacy query strings or RPC bodies
	cutAlice   int      // cut alice's archive halfway this many times
	ranges     []string // Range headers of archive requests
	storage    string   // storage root, on another host name
	shape      string   // if set, the search answers this fixture
	rules      bool     // the competition's rules are not accepted
	auths      []string // Authorization headers storage saw
}

func newFake(t *testing.T) (*fakeKaggle, *httptest.Server) { return newFakeGen(t, "legacy") }

func newFakeGen(t *testing.T, gen string) (*fakeKaggle, *httptest.Server) {
	f := &fakeKaggle{t: t, gen: gen}
	srv := httptest.NewServer(f)
	f.storage = strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/storage/"
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeKaggle) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.URL.Path == "/api/v1/datasets/list" || strings.HasSuffix(r.URL.Path, "/ListDatasets") {
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
		f.auths = append(f.auths, r.Header.Get("Authorization"))
		f.download(w, r, strings.TrimPrefix(r.URL.Path, "/storage/"))
		return
	}
	if rpc, ok := strings.CutPrefix(r.URL.Path, "/v1/"); ok {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "POST JSON only", http.StatusMethodNotAllowed)
			return
		}
		if rpc == "users.AccountService/GenerateAccessToken" && f.gen == "current" {
			var body map[string]any
			json.NewDecoder(r.Body).Decode(&body)
			if body["refreshToken"] != "refresh-1" || body["apiVersion"] != "API_VERSION_V1" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			fmt.Fprintf(w, `{"token":%q,"expiresIn":43200,"userName":"ann"}`, testToken)
			return
		}
		if f.gen != "current" || r.Header.Get("Authorization") != "Bearer "+testToken {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"code":401,"message":"Unauthenticated"}`)
			return
		}
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f.rpc(w, r, rpc, body)
		return
	}
	if f.gen != "legacy" {
		http.NotFound(w, r)
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
		if f.searches == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		switch r.URL.Query().Get("page") {
		case "1":
			f.file(w, "datasets_list_page1.json")
		case "2":
			f.file(w, "datasets_list_page2.json")
		default:
			fmt.Fprint(w, "[]")
		}
	case strings.HasPrefix(p, "/datasets/list/"):
		ref := strings.TrimPrefix(p, "/datasets/list/")
		if ref == "alice/titanic-survival" {
			f.file(w, "files_alice_titanic-survival.json")
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"datasetFiles": []DatasetFile{{Ref: "data.csv", Name: "data.csv", TotalBytes: 10}}})
	case strings.HasPrefix(p, "/datasets/view/"):
		ref := strings.TrimPrefix(p, "/datasets/view/")
		json.NewEncoder(w).Encode(Dataset{Ref: ref, Title: "Viewed", LicenseName: "CC0: Public Domain", CurrentVersionNumber: 7})
	case strings.HasPrefix(p, "/datasets/download/"):
		f.downloadRoute(w, r, strings.TrimPrefix(p, "/datasets/download/"), r.URL.RawQuery)
	case p == "/competitions/data/list/titanic-comp":
		f.file(w, "competition_files.json")
	case strings.HasPrefix(p, "/competitions/data/download-all/"):
		f.competitionDownload(w, r, strings.TrimPrefix(p, "/competitions/data/download-all/"))
	default:
		http.NotFound(w, r)
	}
}

// rpc answers the current API's calls.
func (f *fakeKaggle) rpc(w http.ResponseWriter, r *http.Request, method string, body map[string]any) {
	str := func(k string) string { s, _ := body[k].(string); return s }
	ref := str("ownerSlug") + "/" + str("datasetSlug")
	switch method {
	case "datasets.DatasetApiService/ListDatasets":
		b, _ := json.Marshal(body)
		f.searchURLs = append(f.searchURLs, string(b))
		if f.searches == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		switch {
		case f.shape != "":
			f.file(w, f.shape)
		case body["page"] == 1.0:
			f.file(w, "rpc_list_datasets_page1.json")
		case body["page"] == 2.0 && str("pageToken") == "CAIQAQ":
			f.file(w, "rpc_list_datasets_page2.json")
		default:
			fmt.Fprint(w, "{}")
		}
	case "datasets.DatasetApiService/GetDataset":
		json.NewEncoder(w).Encode(Dataset{Ref: ref, Title: "Viewed", LicenseName: "CC0: Public Domain", CurrentVersionNumber: 7})
	case "datasets.DatasetApiService/ListDatasetFiles":
		switch {
		case ref == "alice/titanic-survival" && str("pageToken") == "":
			f.file(w, "rpc_files_alice_page1.json")
		case ref == "alice/titanic-survival":
			f.file(w, "rpc_files_alice_page2.json")
		default:
			json.NewEncoder(w).Encode(map[string]any{"datasetFiles": []DatasetFile{{Ref: "data.csv", Name: "data.csv", TotalBytes: 10}}})
		}
	case "datasets.DatasetApiService/DownloadDataset":
		q := ""
		if v, ok := body["datasetVersionNumber"].(float64); ok {
			q = fmt.Sprintf("datasetVersionNumber=%d", int(v))
		}
		f.downloadRoute(w, r, ref, q)
	case "competitions.CompetitionApiService/GetCompetition":
		if str("competitionName") != "titanic-comp" && str("competitionName") != "rules-comp" {
			http.NotFound(w, r)
			return
		}
		f.file(w, "rpc_competition.json")
	case "competitions.CompetitionApiService/ListDataFiles":
		f.file(w, "rpc_competition_files.json")
	case "competitions.CompetitionApiService/DownloadDataFiles":
		f.competitionDownload(w, r, str("competitionName"))
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeKaggle) downloadRoute(w http.ResponseWriter, r *http.Request, ref, query string) {
	f.downloads = append(f.downloads, ref+"?"+query)
	if ref == "alice/titanic-survival" {
		http.Redirect(w, r, f.storage+ref, http.StatusFound)
		return
	}
	f.download(w, r, ref)
}

func (f *fakeKaggle) competitionDownload(w http.ResponseWriter, r *http.Request, slug string) {
	f.downloads = append(f.downloads, "competition/"+slug)
	if slug == "rules-comp" || f.rules {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		f.file(w, "rpc_error_rules.json")
		return
	}
	http.Redirect(w, r, f.storage+"competition/"+slug, http.StatusFound)
}

func (f *fakeKaggle) file(w http.ResponseWriter, name string) {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.t.Error(err)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
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
	case "competition/titanic-comp":
		body = zipOf(f.t, []zipEntry{{name: "train.csv", body: "PassengerId,Survived\n1,0\n2,1\n"}, {name: "test.csv", body: "PassengerId\n3\n4\n"}})
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
	return newQuerySource(t, "titanic", base, cfg, opts)
}

func newQuerySource(t *testing.T, query, base string, cfg sources.KaggleConfig, opts Options) (*Source, *bytes.Buffer) {
	t.Helper()
	cfg.BaseURL = base + "/v1"
	cfg.LegacyURL = base + "/api/v1"
	if cfg.Retries == 0 {
		cfg.Retries = 3
	}
	opts.Config = cfg
	if opts.Getenv == nil {
		opts.Getenv = testEnv
	}
	var logs bytes.Buffer
	opts.Log = slog.New(slog.NewTextHandler(&logs, nil))
	s, err := New(query, opts)
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
		"bomb.log", "compression ratio", "erin/cut-download", "truncated", "using the legacy routes",
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
	if fake.searches != 2 {
		t.Errorf("%d requests after a 401, want 2 (the current API, then the legacy route; no retry)", fake.searches)
	}
	if _, err := s.Plan(context.Background()); err == nil || !strings.Contains(err.Error(), cred) {
		t.Errorf("Plan = %v", err)
	}
}

func TestCredentials(t *testing.T) {
	home := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(home, rel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tokenFile := write("tok", "KGAT_fromfile\n")
	write("cfg/access_token", "KGAT_access\n")
	write("cfg2/credentials.json", `{"refresh_token":"r","access_token":"a","access_token_expiration":"2999-01-01T00:00:00+00:00","username":"ann"}`)
	write("cfg3/kaggle.json", `{"username":"ann","key":"abc"}`)
	write(".config/kaggle/kaggle.json", `{"username":"xdg","key":"k"}`)
	explicit := write("explicit.json", `{"username":"exp","key":"k"}`)
	env := func(kv ...string) func(string) string {
		m := map[string]string{"HOME": home}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	legacy := []string{"KAGGLE_USERNAME", "envuser", "KAGGLE_KEY", "envkey"}
	cases := []struct {
		name, path     string
		env            func(string) string
		kind, from     string
		bearer, secret string
	}{
		{"explicit file first", explicit, env("KAGGLE_API_TOKEN", "KGAT_env"), KindLegacy, explicit, "", "exp"},
		{"token value", "", env(append([]string{"KAGGLE_API_TOKEN", "KGAT_env", "KAGGLE_CONFIG_DIR", filepath.Join(home, "cfg3")}, legacy...)...), KindToken, "KAGGLE_API_TOKEN", "KGAT_env", ""},
		{"token path", "", env("KAGGLE_API_TOKEN", tokenFile), KindToken, "KAGGLE_API_TOKEN (file " + tokenFile + ")", "KGAT_fromfile", ""},
		{"access_token before legacy env", "", env(append([]string{"KAGGLE_CONFIG_DIR", filepath.Join(home, "cfg")}, legacy...)...), KindToken, filepath.Join(home, "cfg", "access_token"), "KGAT_access", ""},
		{"oauth credentials.json", "", env("KAGGLE_CONFIG_DIR", filepath.Join(home, "cfg2")), KindOAuth, filepath.Join(home, "cfg2", "credentials.json"), "", ""},
		{"legacy env before kaggle.json", "", env(append([]string{"KAGGLE_CONFIG_DIR", filepath.Join(home, "cfg3")}, legacy...)...), KindLegacy, "KAGGLE_USERNAME/KAGGLE_KEY", "", "envuser"},
		{"kaggle.json in KAGGLE_CONFIG_DIR", "", env("KAGGLE_CONFIG_DIR", filepath.Join(home, "cfg3")), KindLegacy, filepath.Join(home, "cfg3", "kaggle.json"), "", "ann"},
		{"XDG fallback without ~/.kaggle", "", env(), KindLegacy, filepath.Join(home, ".config", "kaggle", "kaggle.json"), "", "xdg"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := LoadCredentials(tc.path, tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if c.Kind != tc.kind || c.From != tc.from || c.Token != tc.bearer || c.Username != tc.secret {
				t.Errorf("got %+v, want kind %q from %q", c, tc.kind, tc.from)
			}
			if d := c.Describe(); strings.Contains(d, "KGAT_") || strings.Contains(d, "abc") || strings.Contains(d, "envkey") {
				t.Errorf("Describe shows a secret: %s", d)
			}
		})
	}
	empty := t.TempDir()
	_, err := LoadCredentials("", func(k string) string { return map[string]string{"HOME": empty}[k] })
	if err == nil || !strings.Contains(err.Error(), SettingsURL) || !strings.Contains(err.Error(), "KAGGLE_API_TOKEN") || !strings.Contains(err.Error(), "Generate New Token") {
		t.Errorf("no credentials: %v", err)
	}
	bad := write("bad.json", "{not json")
	if _, err := LoadCredentials(bad, env()); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("bad file: %v", err)
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
	for _, d := range fake.downloads[n:] {
		if !strings.HasPrefix(d, "erin/") {
			t.Errorf("rerun downloaded %s again, want only the cut one (erin's)", d)
		}
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
	fake.cutAlice = 4 // the first try and the three resumes of the run
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
