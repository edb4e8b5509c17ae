package kaggle

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/sources"
)

// These tests hold synth to what Kaggle's CLI and kagglehub do (see the
// sources page of the manual for the differences kept on purpose).

// TestCredentialPrecedenceFollowsTheCLI: with an OAuth credentials.json and
// a legacy key both present, the CLI uses the legacy key unless
// KAGGLE_ENABLE_OAUTH is set; with only the OAuth file, synth still uses it.
func TestCredentialPrecedenceFollowsTheCLI(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "credentials.json"), []byte(`{"refresh_token":"r","access_token":"a","access_token_expiration":"2999-01-01T00:00:00+00:00"}`), 0o600)
	os.WriteFile(filepath.Join(dir, "kaggle.json"), []byte(`{"username":"ann","key":"k"}`), 0o600)
	env := func(kv ...string) func(string) string {
		m := map[string]string{"HOME": t.TempDir(), "KAGGLE_CONFIG_DIR": dir}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	cases := []struct {
		name string
		env  func(string) string
		kind string
	}{
		{"legacy file before OAuth", env(), KindLegacy},
		{"legacy env before OAuth", env("KAGGLE_USERNAME", "u", "KAGGLE_KEY", "k"), KindLegacy},
		{"KAGGLE_ENABLE_OAUTH puts OAuth first", env("KAGGLE_ENABLE_OAUTH", "true"), KindOAuth},
		{"KAGGLE_ENABLE_OAUTH=0 does not", env("KAGGLE_ENABLE_OAUTH", "0"), KindLegacy},
		{"a token before both", env("KAGGLE_API_TOKEN", "KGAT_x", "KAGGLE_ENABLE_OAUTH", "1"), KindToken},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := LoadCredentials("", tc.env)
			if err != nil || c.Kind != tc.kind {
				t.Errorf("got %q (%v), want %q", c.Kind, err, tc.kind)
			}
		})
	}
	os.Remove(filepath.Join(dir, "kaggle.json"))
	if c, err := LoadCredentials("", env()); err != nil || c.Kind != KindOAuth {
		t.Errorf("OAuth alone: got %q (%v), want it used", c.Kind, err)
	}
}

// publicKaggle answers the current API for one public dataset, pinned
// versions included, without asking for credentials; search and anything
// else needs a bearer token.
type publicKaggle struct {
	mu       sync.Mutex
	current  int
	auths    []string
	bodies   []map[string]any
	versions []int // datasetVersionNumber of each download
	files    []string
	methods  []string
	evil     bool // the listing names a file out of any folder
}

func (p *publicKaggle) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.auths = append(p.auths, r.Header.Get("Authorization"))
	var body map[string]any
	json.NewDecoder(r.Body).Decode(&body)
	p.bodies = append(p.bodies, body)
	w.Header().Set("Content-Type", "application/json")
	method := strings.TrimPrefix(r.URL.Path, "/v1/")
	p.methods = append(p.methods, method)
	version := p.current
	if v, ok := body["datasetVersionNumber"].(float64); ok {
		version = int(v)
	}
	switch method {
	case "datasets.DatasetApiService/GetDataset":
		fmt.Fprintf(w, `{"ref":"pub/rain","title":"Rain","licenseName":"CC0: Public Domain","currentVersionNumber":%d}`, p.current)
	case "datasets.DatasetApiService/ListDatasetFiles":
		if p.evil {
			fmt.Fprint(w, `{"datasetFiles":[{"name":"../../../../outside.csv","totalBytes":30},{"name":"rain.csv","totalBytes":30}]}`)
			return
		}
		fmt.Fprint(w, `{"datasetFiles":[{"name":"rain.csv","totalBytes":30},{"name":"notes/readme.txt","totalBytes":20}]}`)
	case "datasets.DatasetApiService/DownloadDataset":
		p.versions = append(p.versions, version)
		w.Header().Set("Content-Type", "application/zip")
		w.Write(zipOf(nil, []zipEntry{{name: "rain.csv", body: fmt.Sprintf("day,mm\n1,%d\n2,3\n", version)}, {name: "notes/readme.txt", body: "rain in mm per day\n"}}))
	case "datasets.DatasetApiService/DownloadDatasetFile":
		p.versions = append(p.versions, version)
		name, _ := body["fileName"].(string)
		p.files = append(p.files, name)
		w.Header().Set("Content-Type", "text/csv")
		fmt.Fprintf(w, "day,mm\n1,%d\n2,3\n", version)
	default:
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"code":401,"message":"Unauthenticated"}`)
	}
}

func noCredentials(t *testing.T) func(string) string {
	home := t.TempDir()
	return func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
}

func TestPublicDatasetNeedsNoCredentials(t *testing.T) {
	pub := &publicKaggle{current: 2}
	srv := httptest.NewServer(pub)
	t.Cleanup(srv.Close)
	s, _ := newQuerySource(t, "pub/rain", srv.URL, sources.KaggleConfig{}, Options{Getenv: noCredentials(t)})
	if !s.Credentials().Anonymous() {
		t.Fatalf("credentials = %s, want anonymous", s.Credentials().Describe())
	}
	items := collect(t, s)
	if len(items) != 2 || items[0].body != "day,mm\n1,2\n2,3\n" {
		t.Fatalf("collected %+v", items)
	}
	for _, a := range pub.auths {
		if a != "" {
			t.Errorf("an anonymous source sent Authorization %q", a)
		}
	}
	// A search needs credentials: the error says so and where to get them.
	s, _ = newQuerySource(t, "rain", srv.URL, sources.KaggleConfig{}, Options{Getenv: noCredentials(t)})
	err := s.Collect(context.Background(), func(sources.Item) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "anonymous") || !strings.Contains(err.Error(), SettingsURL) {
		t.Errorf("anonymous search: %v, want a refusal naming where tokens come from", err)
	}
}

// TestPinnedVersionCollectsThePinnedBytes: a dataset pinned to version 2
// collects version 2's bytes after version 3 appeared, in all three
// spellings; a version that does not exist yet fails naming the newest.
func TestPinnedVersionCollectsThePinnedBytes(t *testing.T) {
	for _, spec := range []string{"pub/rain@2", "pub/rain/versions/2", "pub/rain/2"} {
		t.Run(spec, func(t *testing.T) {
			pub := &publicKaggle{current: 3}
			srv := httptest.NewServer(pub)
			t.Cleanup(srv.Close)
			s, _ := newQuerySource(t, spec, srv.URL, sources.KaggleConfig{}, Options{Getenv: noCredentials(t), CacheDir: t.TempDir()})
			items := collect(t, s)
			if len(items) == 0 || items[0].body != "day,mm\n1,2\n2,3\n" || items[0].version != "2" {
				t.Fatalf("collected %+v, want version 2's rain.csv", items)
			}
			if len(pub.versions) != 1 || pub.versions[0] != 2 {
				t.Errorf("downloads asked for versions %v, want [2]", pub.versions)
			}
		})
	}
	pub := &publicKaggle{current: 3}
	srv := httptest.NewServer(pub)
	t.Cleanup(srv.Close)
	s, _ := newQuerySource(t, "pub/rain@9", srv.URL, sources.KaggleConfig{}, Options{Getenv: noCredentials(t)})
	err := s.Collect(context.Background(), func(sources.Item) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "version 9") || !strings.Contains(err.Error(), "newest is 3") {
		t.Errorf("a version from the future: %v", err)
	}
	for _, bad := range []string{"pub/rain@0", "pub/rain@x", "pub/rain/versions/-1"} {
		if _, err := New(bad, Options{Getenv: noCredentials(t)}); err == nil {
			t.Errorf("New(%q) accepted a bad version", bad)
		}
	}
	if _, err := New("x", Options{Getenv: noCredentials(t), Config: sources.KaggleConfig{Datasets: []string{"a/b@two"}}}); err == nil || !strings.Contains(err.Error(), "sources.kaggle.datasets") {
		t.Errorf("a bad pinned entry in sources.kaggle.datasets: %v", err)
	}
}

func TestUserFilterSelectsTheUserGroup(t *testing.T) {
	fake, srv := newFakeGen(t, "current")
	s, _ := newTestSource(t, srv.URL, sources.KaggleConfig{User: "alice", MaxPages: 1}, Options{Getenv: tokenEnv})
	s.Plan(context.Background())
	var body map[string]any
	if len(fake.searchURLs) == 0 || json.Unmarshal([]byte(fake.searchURLs[len(fake.searchURLs)-1]), &body) != nil {
		t.Fatalf("no search sent: %q", fake.searchURLs)
	}
	if body["group"] != "DATASET_SELECTION_GROUP_USER" || body["user"] != "alice" {
		t.Errorf("ListDatasets body = %v, want the user group and the user", body)
	}
	legacy, lsrv := newFake(t)
	s, _ = newTestSource(t, lsrv.URL, sources.KaggleConfig{User: "alice", MaxPages: 1}, Options{})
	s.Plan(context.Background())
	if q := legacy.searchURLs[len(legacy.searchURLs)-1]; !strings.Contains(q, "group=user") || !strings.Contains(q, "user=alice") {
		t.Errorf("legacy search query = %q, want group=user&user=alice", q)
	}
}

// TestSingleFileDownload: a files filter downloads the one file it names
// (DownloadDatasetFile, as the CLI's -f), never the archive, keeps it in
// the cache by version, and a filter matching nothing fails naming it.
func TestSingleFileDownload(t *testing.T) {
	pub := &publicKaggle{current: 4}
	srv := httptest.NewServer(pub)
	t.Cleanup(srv.Close)
	cache := t.TempDir()
	s, _ := newQuerySource(t, "pub/rain", srv.URL, sources.KaggleConfig{Files: []string{"*.csv"}}, Options{Getenv: noCredentials(t), CacheDir: cache})
	items := collect(t, s)
	if len(items) != 1 || items[0].name != "rain.csv" || items[0].ref != "pub/rain/rain.csv" || items[0].body != "day,mm\n1,4\n2,3\n" {
		t.Fatalf("collected %+v, want rain.csv alone", items)
	}
	for _, m := range pub.methods {
		if strings.HasSuffix(m, "/DownloadDataset") {
			t.Errorf("the whole archive was asked for: %v", pub.methods)
		}
	}
	if len(pub.files) != 1 || pub.files[0] != "rain.csv" {
		t.Errorf("files downloaded = %v", pub.files)
	}
	if _, err := os.Stat(filepath.Join(cache, "kaggle", "pub", "rain", "v4", "files", "rain.csv")); err != nil {
		t.Errorf("the file is not kept in the cache by version: %v", err)
	}
	collect(t, s) // from the cache
	if len(pub.files) != 1 {
		t.Errorf("a cached file was downloaded again: %v", pub.files)
	}
	s, _ = newQuerySource(t, "pub/rain", srv.URL, sources.KaggleConfig{Files: []string{"*.parquet"}}, Options{Getenv: noCredentials(t)})
	err := s.Collect(context.Background(), func(sources.Item) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "*.parquet") {
		t.Errorf("a filter that matches nothing: %v", err)
	}
}

// TestCachedCompetitionDataIsCheckedForChanges: a cached competition
// archive is reused while storage says the data was last modified before
// it was cached, and downloaded again once the data changed (as kagglehub
// reads Last-Modified).
func TestCachedCompetitionDataIsCheckedForChanges(t *testing.T) {
	var mu sync.Mutex
	body, modified := "id\n1\n", time.Now().Add(-time.Hour)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch strings.TrimPrefix(r.URL.Path, "/v1/") {
		case "competitions.CompetitionApiService/GetCompetition":
			fmt.Fprint(w, `{"ref":"quiz","title":"Quiz"}`)
		case "competitions.CompetitionApiService/ListDataFiles":
			fmt.Fprint(w, `{"files":[{"name":"train.csv","totalBytes":8}]}`)
		case "competitions.CompetitionApiService/DownloadDataFiles":
			w.Header().Set("Content-Type", "application/zip")
			http.ServeContent(w, r, "data.zip", modified, bytes.NewReader(zipOf(t, []zipEntry{{name: "train.csv", body: body}})))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	cache := t.TempDir()
	s, _ := newQuerySource(t, "competition/quiz", srv.URL, sources.KaggleConfig{}, Options{Getenv: tokenEnv, CacheDir: cache})
	if items := collect(t, s); len(items) != 1 || items[0].body != "id\n1\n" {
		t.Fatalf("first collection: %+v", items)
	}
	mu.Lock()
	body = "id\n2\n" // the bytes differ, but storage still dates them before the cache
	mu.Unlock()
	if items := collect(t, s); items[0].body != "id\n1\n" {
		t.Errorf("an unchanged competition was downloaded again: %+v", items)
	}
	mu.Lock()
	modified = time.Now().Add(time.Hour) // the data changed after it was cached
	mu.Unlock()
	if items := collect(t, s); items[0].body != "id\n2\n" {
		t.Errorf("changed competition data came from a stale cache: %+v", items)
	}
}

// TestHostileFileNameStaysInTheCache: a listing that names a file with ..
// never makes synth write outside its cache; the other files still come.
func TestHostileFileNameStaysInTheCache(t *testing.T) {
	pub := &publicKaggle{current: 1, evil: true}
	srv := httptest.NewServer(pub)
	t.Cleanup(srv.Close)
	root := t.TempDir()
	cache := filepath.Join(root, "a", "b", "c", "cache")
	s, _ := newQuerySource(t, "pub/rain", srv.URL, sources.KaggleConfig{Files: []string{"*.csv"}}, Options{Getenv: noCredentials(t), CacheDir: cache})
	items := collect(t, s)
	if len(items) != 1 || items[0].name != "rain.csv" {
		t.Errorf("collected %+v, want rain.csv alone", items)
	}
	filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err == nil && strings.Contains(e.Name(), "outside") {
			t.Errorf("a hostile name was written: %s", p)
		}
		return nil
	})
}

// TestKagglehubCacheIsShared: a dataset version kagglehub downloaded and
// marked complete is collected from its cache, with nothing downloaded; an
// incomplete one (no marker) is downloaded.
func TestKagglehubCacheIsShared(t *testing.T) {
	hub := t.TempDir()
	ver := filepath.Join(hub, "datasets", "pub", "rain", "versions", "2")
	os.MkdirAll(filepath.Join(ver, "sub"), 0o755)
	os.WriteFile(filepath.Join(ver, "rain.csv"), []byte("day,mm\n1,22\n"), 0o644)
	os.WriteFile(filepath.Join(ver, "sub", "notes.txt"), []byte("from the hub\n"), 0o644)
	os.Symlink("/etc/passwd", filepath.Join(ver, "link.txt"))
	env := func(k string) string {
		return map[string]string{"HOME": t.TempDir(), "KAGGLEHUB_CACHE": hub}[k]
	}
	pub := &publicKaggle{current: 2}
	srv := httptest.NewServer(pub)
	t.Cleanup(srv.Close)
	s, _ := newQuerySource(t, "pub/rain@2", srv.URL, sources.KaggleConfig{}, Options{Getenv: env})
	if items := collect(t, s); len(items) != 2 || len(pub.versions) != 1 {
		// no marker yet: downloaded
		t.Fatalf("without kagglehub's marker: %d items, %d downloads", len(items), len(pub.versions))
	}
	os.WriteFile(filepath.Join(hub, "datasets", "pub", "rain", "2.complete"), nil, 0o644)
	items := collect(t, s)
	var got []string
	for _, it := range items {
		got = append(got, it.ref+"="+strings.TrimSpace(it.body))
	}
	if strings.Join(got, " ") != "pub/rain/rain.csv=day,mm\n1,22 pub/rain/sub/notes.txt=from the hub" || len(pub.versions) != 1 {
		t.Errorf("from kagglehub's cache: %q, %d downloads (want none more)", got, len(pub.versions))
	}
	s, _ = newQuerySource(t, "pub/rain@2", srv.URL, sources.KaggleConfig{KagglehubCache: "off"}, Options{Getenv: env})
	collect(t, s)
	if len(pub.versions) != 2 {
		t.Errorf("kagglehub_cache: off still read the cache")
	}
}

// TestSinceSkipsDatasetsNotUpdated: with Since, a search keeps only the
// datasets updated since (the fixtures: 2024-03, 2023-11, 2022-01, 2021-06).
func TestSinceSkipsDatasetsNotUpdated(t *testing.T) {
	_, srv := newFakeGen(t, "current")
	s, _ := newTestSource(t, srv.URL, sources.KaggleConfig{}, Options{Getenv: tokenEnv, Since: time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC)})
	plan, err := s.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range plan {
		seen[strings.SplitN(p.Source.Ref, "/", 3)[0]] = true
	}
	if !seen["alice"] || !seen["bob"] || seen["carol"] || seen["dave"] || seen["erin"] {
		t.Errorf("owners planned = %v, want alice and bob only", seen)
	}
}
