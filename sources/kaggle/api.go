package kaggle

import (
	"encoding/json"
	"time"
)

// Dataset is an entry of api/v1/datasets/list and the answer of
// api/v1/datasets/view/{owner}/{slug} (the fields synth uses).
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

// FileList is the answer of api/v1/datasets/list/{owner}/{slug}.
type FileList struct {
	DatasetFiles  []DatasetFile `json:"datasetFiles"`
	ErrorMessage  *string       `json:"errorMessage"`
	NextPageToken string        `json:"nextPageToken"`
}

// DatasetFile is one file of a dataset listing.
type DatasetFile struct {
	Ref          string `json:"ref"`
	Name         string `json:"name"`
	TotalBytes   int64  `json:"totalBytes"`
	CreationDate string `json:"creationDate"`
	FileType     string `json:"fileType"`
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
