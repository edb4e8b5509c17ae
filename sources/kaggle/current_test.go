package kaggle

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/sources"
)

func tokenEnv(k string) string {
	if k == "KAGGLE_API_TOKEN" {
		return testToken
	}
	return ""
}

func TestCurrentAPIWithBearerToken(t *testing.T) {
	fake, srv := newFakeGen(t, "current")
	s, logs := newTestSource(t, srv.URL, sources.KaggleConfig{FileType: "bigQuery", Sort: "votes", MinSize: "1KB"}, Options{Getenv: tokenEnv})
	items := collect(t, s)
	var refs []string
	for _, it := range items {
		refs = append(refs, it.ref)
	}
	for _, want := range []string{"alice/titanic-survival/train.csv", "bob/store-sales/sales.csv", "dave/weather-stations/stations.tsv"} {
		if !slices.Contains(refs, want) {
			t.Errorf("collected %v, lacks %s", refs, want)
		}
	}
	if it := items[0]; it.license != "CC0-1.0" || it.version != "3" {
		t.Errorf("provenance = %+v", it)
	}
	var body map[string]any
	json.Unmarshal([]byte(fake.searchURLs[0]), &body)
	if body["search"] != "titanic" || body["fileType"] != "DATASET_FILE_TYPE_GROUP_BIG_QUERY" || body["sortBy"] != "DATASET_SORT_BY_VOTES" || body["minSize"] != 1000.0 {
		t.Errorf("ListDatasets body = %s", fake.searchURLs[0])
	}
	if len(fake.searchURLs) < 3 || !strings.Contains(fake.searchURLs[2], `"pageToken":"CAIQAQ"`) {
		t.Errorf("second page not asked with the page token: %q", fake.searchURLs)
	}
	for _, a := range fake.auths {
		if a != "" {
			t.Errorf("storage saw credentials %q", a)
		}
	}
	if strings.Contains(logs.String(), "legacy") {
		t.Errorf("a Bearer token fell back to the legacy routes:\n%s", logs)
	}
	plan, err := s.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var alice []string
	for _, p := range plan {
		if strings.HasPrefix(p.Source.Ref, "alice/") {
			alice = append(alice, p.Name)
		}
	}
	if !slices.Equal(alice, []string{"train.csv", "cat.png"}) {
		t.Errorf("alice's files over two token pages = %v", alice)
	}
}

func TestUnknownShapeFails(t *testing.T) {
	for _, gen := range []string{"current", "legacy-html"} {
		t.Run(gen, func(t *testing.T) {
			fake, srv := newFakeGen(t, "current")
			fake.shape = "rpc_unknown_shape.json"
			if gen == "legacy-html" {
				fake.shape = "../../testdata/files/page.html"
			}
			s, _ := newTestSource(t, srv.URL, sources.KaggleConfig{}, Options{Getenv: tokenEnv})
			err := s.Collect(context.Background(), func(sources.Item) error { return nil })
			if err == nil || !strings.Contains(err.Error(), "datasets.DatasetApiService/ListDatasets") || !strings.Contains(err.Error(), "cannot read") {
				t.Fatalf("Collect = %v, want an error naming the endpoint", err)
			}
			if gen == "current" && !strings.Contains(err.Error(), `"results"`) {
				t.Errorf("error does not show the body: %v", err)
			}
			if _, err := s.Plan(context.Background()); err == nil {
				t.Error("Plan succeeded on an unreadable answer")
			}
		})
	}
}

func TestDecodeEnvelopes(t *testing.T) {
	cases := []struct {
		name, body string
		n          int
		next       string
		fails      bool
	}{
		{"legacy list", `[{"ref":"a/b"}]`, 1, "", false},
		{"current envelope", `{"datasets":[{"ref":"a/b"},{"ref":"c/d"}],"nextPageToken":"T"}`, 2, "T", false},
		{"current empty", `{}`, 0, "", false},
		{"error envelope", `{"code":429,"message":"slow down"}`, 0, "", true},
		{"other object", `{"items":[]}`, 0, "", true},
		{"html", `<html>sign in</html>`, 0, "", true},
		{"datasets not a list", `{"datasets":{"ref":"a/b"}}`, 0, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			list, next, err := decodeSearch("POST x/ListDatasets", []byte(tc.body))
			if (err != nil) != tc.fails || len(list) != tc.n || next != tc.next {
				t.Errorf("decodeSearch = %d, %q, %v", len(list), next, err)
			}
		})
	}
}

func TestCompetition(t *testing.T) {
	for _, gen := range []string{"current", "legacy"} {
		t.Run(gen, func(t *testing.T) {
			fake, srv := newFakeGen(t, gen)
			opts := Options{Getenv: tokenEnv, CacheDir: t.TempDir()}
			if gen == "legacy" {
				opts.Getenv = testEnv
			}
			s, _ := newQuerySource(t, "competition/titanic-comp", srv.URL, sources.KaggleConfig{}, opts)
			items := collect(t, s)
			if len(items) != 2 || items[0].ref != "competition/titanic-comp/train.csv" || items[0].license != CompetitionLicense {
				t.Fatalf("items = %+v", items)
			}
			if gen == "current" && items[0].title != "Titanic Competition" {
				t.Errorf("title = %q", items[0].title)
			}
			if !slices.Contains(fake.downloads, "competition/titanic-comp") {
				t.Errorf("downloads = %v", fake.downloads)
			}
			if _, err := os.Stat(filepath.Join(opts.CacheDir, "kaggle", "competition", "titanic-comp", "data.zip")); err != nil {
				t.Error(err)
			}
			plan, err := s.Plan(context.Background())
			if err != nil || len(plan) != 2 || plan[1].Name != "test.csv" {
				t.Errorf("plan = %+v, %v", plan, err)
			}
		})
	}
}

func TestCompetitionRulesNotAccepted(t *testing.T) {
	_, srv := newFakeGen(t, "current")
	s, _ := newQuerySource(t, "competition/rules-comp", srv.URL, sources.KaggleConfig{}, Options{Getenv: tokenEnv})
	err := s.Collect(context.Background(), func(sources.Item) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "https://www.kaggle.com/competitions/rules-comp/rules") || !strings.Contains(err.Error(), "403") {
		t.Fatalf("Collect = %v, want the rules page", err)
	}
	if _, err := New("competition/", Options{Getenv: tokenEnv}); err == nil {
		t.Error("an empty competition slug was accepted")
	}
}

func TestOAuthRefresh(t *testing.T) {
	_, srv := newFakeGen(t, "current")
	dir := t.TempDir()
	path := filepath.Join(dir, "credentials.json")
	os.WriteFile(path, []byte(`{"refresh_token":"refresh-1","access_token":"old","access_token_expiration":"2020-01-01T00:00:00+00:00","username":"ann","scopes":["resources.admin:*"]}`), 0o600)
	env := func(k string) string {
		if k == "KAGGLE_CONFIG_DIR" {
			return dir
		}
		return ""
	}
	s, _ := newTestSource(t, srv.URL, sources.KaggleConfig{}, Options{Getenv: env})
	if s.Credentials().Kind != KindOAuth {
		t.Fatalf("kind = %s", s.Credentials().Kind)
	}
	if items := collect(t, s); len(items) == 0 {
		t.Fatal("nothing collected with refreshed OAuth credentials")
	}
	var saved oauthFile
	b, _ := os.ReadFile(path)
	json.Unmarshal(b, &saved)
	if saved.AccessToken != testToken || saved.RefreshToken != "refresh-1" || len(saved.Scopes) != 1 {
		t.Errorf("credentials.json after refresh = %s", b)
	}
}

// TestRefusedTokenNeverFallsBack: a token the current API refuses stops
// the source with the fix; it is not tried on the legacy routes.
func TestRefusedTokenNeverFallsBack(t *testing.T) {
	fake, srv := newFakeGen(t, "current")
	wrong := func(k string) string {
		if k == "KAGGLE_API_TOKEN" {
			return "KGAT_revoked"
		}
		return ""
	}
	s, logs := newTestSource(t, srv.URL, sources.KaggleConfig{}, Options{Getenv: wrong})
	err := s.Collect(context.Background(), func(sources.Item) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "API token (Bearer) from KAGGLE_API_TOKEN was refused") {
		t.Fatalf("Collect = %v, want the refused token and the fix", err)
	}
	if fake.searches != 1 || strings.Contains(logs.String(), "legacy") {
		t.Errorf("%d searches (want 1, no legacy route); log:\n%s", fake.searches, logs)
	}
}

// TestOneDatasetFailsLoudly: kaggle:OWNER/DATASET names one dataset, so a
// download that cannot finish fails the source; it is never an empty
// success.
func TestOneDatasetFailsLoudly(t *testing.T) {
	_, srv := newFakeGen(t, "current")
	s, _ := newQuerySource(t, "bob/store-sales", srv.URL, sources.KaggleConfig{Retries: -1}, Options{Getenv: tokenEnv})
	err := s.Collect(context.Background(), func(sources.Item) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "bob/store-sales") || !strings.Contains(err.Error(), "500") {
		t.Fatalf("Collect = %v, want the failed download of bob/store-sales", err)
	}
	s, _ = newQuerySource(t, "bob/store-sales", srv.URL, sources.KaggleConfig{}, Options{Getenv: tokenEnv})
	if items := collect(t, s); len(items) != 1 || items[0].ref != "bob/store-sales/sales.csv" {
		t.Errorf("with retries: %+v", items)
	}
}
