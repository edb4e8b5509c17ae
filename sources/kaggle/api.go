package kaggle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Dataset is an ApiDataset of the current API (datasets.DatasetApiService
// ListDatasets and GetDataset), the same fields as an entry of the legacy
// api/v1/datasets/list and the answer of api/v1/datasets/view (the fields
// synth uses).
type Dataset struct {
	Ref                  string    `json:"ref"` // owner/slug
	Title                string    `json:"title"`
	Subtitle             string    `json:"subtitle"`
	URL                  string    `json:"url"`
	TotalBytes           int64     `json:"totalBytes"`
	LicenseName          string    `json:"licenseName"`
	CurrentVersionNumber int       `json:"currentVersionNumber"`
	LastUpdated          time.Time `json:"lastUpdated"`
	Tags                 []Tag     `json:"tags"`
}

// Tag is a dataset tag.
type Tag struct {
	Ref  string `json:"ref"`
	Name string `json:"name"`
}

// DatasetFile is one file of a dataset or competition listing
// (ApiDatasetFile, ApiDataFile).
type DatasetFile struct {
	Ref          string `json:"ref"`
	Name         string `json:"name"`
	TotalBytes   int64  `json:"totalBytes"`
	CreationDate string `json:"creationDate"`
	FileType     string `json:"fileType"`
}

// Competition is an ApiCompetition (the fields synth uses).
type Competition struct {
	Ref   string `json:"ref"` // the slug, or its URL in the legacy answers
	Title string `json:"title"`
	URL   string `json:"url"`
}

// UnmarshalJSON accepts lastUpdated in the forms the API has used.
func (d *Dataset) UnmarshalJSON(b []byte) error {
	type plain Dataset
	var aux struct {
		plain
		LastUpdated string `json:"lastUpdated"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*d = Dataset(aux.plain)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, aux.LastUpdated); err == nil {
			d.LastUpdated = t
			break
		}
	}
	return nil
}

// ShapeError is an answer synth cannot read: not JSON, or JSON of a shape
// neither API generation uses. It names the endpoint and shows the start of
// the body.
type ShapeError struct {
	Endpoint string
	Want     string
	Body     []byte
}

func (e *ShapeError) Error() string {
	return fmt.Sprintf("%s: an answer synth cannot read (want %s): %s", e.Endpoint, e.Want, start(e.Body))
}

// APIError is an error envelope ({"code": 4xx, "message": …}) sent with a
// 2xx status.
type APIError struct {
	Endpoint string
	Code     int
	Message  string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%s: error %d: %s", e.Endpoint, e.Code, e.Message)
}

// object reads raw as a JSON object and checks its keys: an error
// envelope becomes an APIError; an object with none of the known keys (and
// not empty, which is how the current API sends an empty list) is a
// ShapeError.
func object(endpoint, want string, raw []byte, known ...string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, &ShapeError{endpoint, want, raw}
	}
	if c, ok := m["code"]; ok {
		var code int
		var msg string
		json.Unmarshal(c, &code)
		json.Unmarshal(m["message"], &msg)
		if code >= 400 {
			return nil, &APIError{endpoint, code, msg}
		}
	}
	if len(m) == 0 {
		return m, nil
	}
	for k := range m {
		if slices.Contains(known, k) {
			return m, nil
		}
	}
	return nil, &ShapeError{endpoint, want, raw}
}

// decodeSearch reads a search page in either envelope: the legacy list
// ([…]) or the current {"datasets": […], "nextPageToken": …}.
func decodeSearch(endpoint string, raw []byte) ([]Dataset, string, error) {
	const want = `{"datasets": [...]} or a list of datasets`
	var list []Dataset
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(t, &list); err != nil {
			return nil, "", &ShapeError{endpoint, want, raw}
		}
		return list, "", nil
	}
	m, err := object(endpoint, want, raw, "datasets", "nextPageToken")
	if err != nil {
		return nil, "", err
	}
	var next string
	if err := unmarshalKeys(m, map[string]any{"datasets": &list, "nextPageToken": &next}); err != nil {
		return nil, "", &ShapeError{endpoint, want, raw}
	}
	return list, next, nil
}

// decodeDataset reads one dataset (GetDataset, datasets/view).
func decodeDataset(endpoint string, raw []byte) (Dataset, error) {
	const want = "a dataset with a ref"
	if _, err := object(endpoint, want, raw, "ref", "id", "title"); err != nil {
		return Dataset{}, err
	}
	var d Dataset
	if err := json.Unmarshal(raw, &d); err != nil || d.Ref == "" && d.Title == "" {
		return Dataset{}, &ShapeError{endpoint, want, raw}
	}
	return d, nil
}

// decodeFiles reads a page of files in any envelope: {"datasetFiles": …},
// {"files": …} (competitions) or a bare list (legacy competitions).
func decodeFiles(endpoint string, raw []byte) ([]DatasetFile, string, error) {
	const want = `{"datasetFiles": [...]} or {"files": [...]}`
	var files []DatasetFile
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(t, &files); err != nil {
			return nil, "", &ShapeError{endpoint, want, raw}
		}
		return files, "", nil
	}
	m, err := object(endpoint, want, raw, "datasetFiles", "files", "nextPageToken", "errorMessage")
	if err != nil {
		return nil, "", err
	}
	var more []DatasetFile
	var next string
	var msg *string
	if err := unmarshalKeys(m, map[string]any{"datasetFiles": &files, "files": &more, "nextPageToken": &next, "errorMessage": &msg}); err != nil {
		return nil, "", &ShapeError{endpoint, want, raw}
	}
	if msg != nil && *msg != "" {
		return nil, "", &APIError{endpoint, 0, *msg}
	}
	return append(files, more...), next, nil
}

// decodeCompetition reads GetCompetition's answer.
func decodeCompetition(endpoint string, raw []byte) (Competition, error) {
	const want = "a competition with a ref or title"
	if _, err := object(endpoint, want, raw, "ref", "id", "title"); err != nil {
		return Competition{}, err
	}
	var c Competition
	if err := json.Unmarshal(raw, &c); err != nil || c.Ref == "" && c.Title == "" {
		return Competition{}, &ShapeError{endpoint, want, raw}
	}
	return c, nil
}

func unmarshalKeys(m map[string]json.RawMessage, into map[string]any) error {
	for k, v := range into {
		if raw, ok := m[k]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, v); err != nil {
				return err
			}
		}
	}
	return nil
}
