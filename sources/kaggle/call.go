package kaggle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"synth/sources/fetch"
)

// Endpoints of the two API generations.
const (
	// DefaultBaseURL is the current API: POST <base>/<Service>/<Method>
	// with a JSON body, as kagglesdk and the kaggle CLI call it.
	DefaultBaseURL = "https://api.kaggle.com/v1"
	// DefaultLegacyURL is the legacy REST API (GET …/api/v1/datasets/…),
	// used only when the current API refuses a legacy key.
	DefaultLegacyURL = "https://www.kaggle.com/api/v1"
)

const (
	datasetService     = "datasets.DatasetApiService"
	competitionService = "competitions.CompetitionApiService"
)

// call is one API call in both generations: the RPC, and the legacy GET
// route (path and query under the legacy root; "" when there is none).
type call struct {
	service, method string
	body            any
	legacy          string
}

// do sends c to the current API and returns the answer's body and the
// endpoint that gave it. When the current API refuses (401) a legacy key,
// this call and every later one go to the legacy routes.
func (s *Source) do(ctx context.Context, c call) ([]byte, string, error) {
	if !s.legacyOnly {
		endpoint := s.base + "/" + c.service + "/" + c.method
		raw, err := s.fetchBody(ctx, s.rpcRequest(c))
		if err == nil || c.legacy == "" || s.creds.Bearer() || s.creds.Anonymous() || !isStatus(err, http.StatusUnauthorized) {
			return raw, "POST " + endpoint, err
		}
		s.legacyOnly = true
		s.log.Info("the current API refused the legacy key; using the legacy routes", "source", "kaggle", "endpoint", endpoint, "legacy", s.legacy)
	}
	endpoint := s.legacy + c.legacy
	raw, err := s.fetchBody(ctx, fetch.Request{URL: endpoint})
	return raw, "GET " + endpoint, err
}

func (s *Source) rpcRequest(c call) fetch.Request {
	body, _ := json.Marshal(c.body)
	return fetch.Request{Method: http.MethodPost, URL: s.base + "/" + c.service + "/" + c.method, Body: body}
}

// downloadRequest is the first request of a download: the RPC, or the
// legacy route once the current API has refused the key.
func (s *Source) downloadRequest(c call) fetch.Request {
	if s.legacyOnly {
		return fetch.Request{URL: s.legacy + c.legacy}
	}
	return s.rpcRequest(c)
}

func (s *Source) fetchBody(ctx context.Context, r fetch.Request) ([]byte, error) {
	resp, err := s.client.Do(ctx, r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(io.LimitReader(resp.Body, 64<<20))
}

func isStatus(err error, code int) bool {
	var se *fetch.StatusError
	return errors.As(err, &se) && se.Code == code
}

func searchCall(query string, page int, token string, f searchFilter) call {
	body := map[string]any{"search": query, "page": page, "group": "DATASET_SELECTION_GROUP_PUBLIC"}
	q := url.Values{}
	q.Set("search", query)
	q.Set("page", fmt.Sprint(page))
	q.Set("group", "public")
	if token != "" {
		body["pageToken"] = token
	}
	enum := func(key, legacyKey, prefix, v string) {
		if v != "" {
			body[key] = prefix + strings.ToUpper(camelToSnake(v))
			q.Set(legacyKey, v)
		}
	}
	enum("sortBy", "sortBy", "DATASET_SORT_BY_", f.sort)
	enum("fileType", "filetype", "DATASET_FILE_TYPE_GROUP_", f.fileType)
	enum("license", "license", "DATASET_LICENSE_GROUP_", f.license)
	if f.user != "" {
		// As the CLI: a user's datasets are the user selection group, and
		// the user field alone selects nothing.
		body["group"] = "DATASET_SELECTION_GROUP_USER"
		body["user"] = f.user
		q.Set("group", "user")
		q.Set("user", f.user)
	}
	if f.tags != "" {
		body["tagIds"] = f.tags
		q.Set("tagids", f.tags)
	}
	if f.minSize > 0 {
		body["minSize"] = f.minSize
		q.Set("minSize", fmt.Sprint(f.minSize))
	}
	if f.maxSize > 0 {
		body["maxSize"] = f.maxSize
		q.Set("maxSize", fmt.Sprint(f.maxSize))
	}
	return call{datasetService, "ListDatasets", body, "/datasets/list?" + q.Encode()}
}

// camelToSnake turns bigQuery into big_query, for the API's enum names.
func camelToSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return b.String()
}

type searchFilter struct {
	sort, fileType, license, user, tags string
	minSize, maxSize                    int64
}

func viewCall(ref string) call {
	owner, slug, _ := strings.Cut(ref, "/")
	return call{datasetService, "GetDataset", map[string]any{"ownerSlug": owner, "datasetSlug": slug}, "/datasets/view/" + escapeRef(ref)}
}

func filesCall(ref string, version int, token string) call {
	owner, slug, _ := strings.Cut(ref, "/")
	body := map[string]any{"ownerSlug": owner, "datasetSlug": slug}
	q := url.Values{}
	if version > 0 {
		body["datasetVersionNumber"] = version
		q.Set("datasetVersionNumber", fmt.Sprint(version))
	}
	if token != "" {
		body["pageToken"] = token
		q.Set("pageToken", token)
	}
	legacy := "/datasets/list/" + escapeRef(ref)
	if len(q) > 0 {
		legacy += "?" + q.Encode()
	}
	return call{datasetService, "ListDatasetFiles", body, legacy}
}

func downloadCall(ref string, version int) call {
	owner, slug, _ := strings.Cut(ref, "/")
	body := map[string]any{"ownerSlug": owner, "datasetSlug": slug}
	legacy := "/datasets/download/" + escapeRef(ref)
	if version > 0 {
		body["datasetVersionNumber"] = version
		legacy += fmt.Sprintf("?datasetVersionNumber=%d", version)
	}
	return call{datasetService, "DownloadDataset", body, legacy}
}

// downloadFileCall asks for one file of a dataset, as the CLI's
// datasets download -f does.
func downloadFileCall(ref string, version int, name string) call {
	owner, slug, _ := strings.Cut(ref, "/")
	body := map[string]any{"ownerSlug": owner, "datasetSlug": slug, "fileName": name}
	legacy := "/datasets/download/" + escapeRef(ref) + "/" + url.PathEscape(name)
	if version > 0 {
		body["datasetVersionNumber"] = version
		legacy += fmt.Sprintf("?datasetVersionNumber=%d", version)
	}
	return call{datasetService, "DownloadDatasetFile", body, legacy}
}

func competitionCall(slug string) call {
	return call{competitionService, "GetCompetition", map[string]any{"competitionName": slug}, ""}
}

func competitionFilesCall(slug, token string) call {
	body := map[string]any{"competitionName": slug}
	legacy := "/competitions/data/list/" + url.PathEscape(slug)
	if token != "" {
		body["pageToken"] = token
		legacy += "?pageToken=" + url.QueryEscape(token)
	}
	return call{competitionService, "ListDataFiles", body, legacy}
}

func competitionDownloadCall(slug string) call {
	return call{competitionService, "DownloadDataFiles", map[string]any{"competitionName": slug}, "/competitions/data/download-all/" + url.PathEscape(slug)}
}

// escapeRef escapes the parts of owner/slug for a URL path.
func escapeRef(ref string) string {
	owner, slug, _ := strings.Cut(ref, "/")
	return url.PathEscape(owner) + "/" + url.PathEscape(slug)
}
