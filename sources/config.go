package sources

import (
	"fmt"
	"strings"
	"time"
)

// Config is the sources section of synth.yaml. Zero values are sensible
// defaults; the command line's --source specs add to Specs.
type Config struct {
	// Specs are the sources to collect from: sample, local:PATH,
	// kaggle:QUERY, kaggle:OWNER/DATASET, kaggle:competition/SLUG, arxiv:QUERY.
	Specs []string `yaml:"specs" json:"specs"`
	// MaxFileBytes skips larger files ("512MB", "2GiB", "1000000"; empty:
	// 1 GiB). MaxFiles stops a source after that many stored files (0: no limit).
	MaxFileBytes string `yaml:"max_file_bytes" json:"max_file_bytes"`
	MaxFiles     int    `yaml:"max_files" json:"max_files"`
	// Licenses, if set, is an allow-list of license ids (CC0-1.0, MIT, …):
	// files under any other license, or none, are dropped at collection time.
	// Names are compared after NormalizeLicense.
	Licenses []string `yaml:"licenses" json:"licenses"`
	// Types, if set, keeps only files of these detected types (csv, xlsx, png, …).
	Types []string `yaml:"types" json:"types"`
	// Archive bounds what is unpacked from downloaded zips and tarballs.
	Archive ArchiveConfig `yaml:"archive" json:"archive"`
	// Contact (an e-mail address or URL) is sent in the User-Agent of
	// requests to Kaggle and arXiv, as arXiv asks of automated clients.
	Contact string `yaml:"contact" json:"contact,omitempty"`
	// IdleTimeout abandons a Kaggle or arXiv request that receives no byte
	// for this long ("60s", "2m"; empty: 60s); a cut or stalled download
	// is then resumed. There is no limit on a request's total time.
	IdleTimeout string `yaml:"idle_timeout" json:"idle_timeout,omitempty"`
	// Since (YYYY-MM-DD), if set, keeps only files newer than that day: a
	// local file modified since, a Kaggle dataset updated since, an arXiv
	// paper first published since (for a fresh split of new data). The
	// built-in corpus has no dates and is not filtered.
	Since string `yaml:"since" json:"since,omitempty"`

	Local  LocalConfig  `yaml:"local" json:"local"`
	Kaggle KaggleConfig `yaml:"kaggle" json:"kaggle"`
	Arxiv  ArxivConfig  `yaml:"arxiv" json:"arxiv"`
}

// ArchiveConfig bounds archive unpacking (zip bombs, floods of entries).
type ArchiveConfig struct {
	MaxEntries    int     `yaml:"max_entries" json:"max_entries"`         // 0: 10000
	MaxTotalBytes string  `yaml:"max_total_bytes" json:"max_total_bytes"` // uncompressed, per archive; empty: 4GiB
	MaxRatio      float64 `yaml:"max_ratio" json:"max_ratio"`             // uncompressed/compressed per entry; 0: 200
}

// LocalConfig is the local:PATH source's options.
type LocalConfig struct {
	Include []string `yaml:"include" json:"include"` // globs; "**" spans folders; bare patterns match base names
	Exclude []string `yaml:"exclude" json:"exclude"` // globs of files to leave out; they win over include
	License string   `yaml:"license" json:"license"` // recorded for every file of the folder
	Hidden  bool     `yaml:"hidden" json:"hidden"`   // also take dot files
}

// KaggleConfig is the kaggle:QUERY source's options. Credentials are
// found as kaggle.LoadCredentials documents; Credentials names a file
// that takes precedence.
type KaggleConfig struct {
	BaseURL     string   `yaml:"base_url" json:"base_url"`               // the current API; empty: https://api.kaggle.com/v1
	LegacyURL   string   `yaml:"legacy_url" json:"legacy_url,omitempty"` // the legacy API; empty: https://www.kaggle.com/api/v1
	Credentials string   `yaml:"credentials" json:"credentials"`         // a token file, credentials.json or kaggle.json; empty: search
	Tags        []string `yaml:"tags" json:"tags"`                       // Kaggle tag ids
	FileType    string   `yaml:"file_type" json:"file_type"`             // all, csv, sqlite, json, bigQuery
	License     string   `yaml:"license" json:"license"`                 // Kaggle's license group: all, cc, gpl, odb, other
	Sort        string   `yaml:"sort" json:"sort"`                       // hottest, votes, updated, active
	User        string   `yaml:"user" json:"user"`                       // only this owner's datasets
	MinSize     string   `yaml:"min_size" json:"min_size"`               // the smallest dataset a search takes ("10MB"); empty: no bound
	MaxSize     string   `yaml:"max_size" json:"max_size"`               // the largest dataset a search takes ("2GB"); empty: no bound
	MaxDatasets int      `yaml:"max_datasets" json:"max_datasets"`       // 0: 10
	MaxPages    int      `yaml:"max_pages" json:"max_pages"`             // search pages to read; 0: 5
	Datasets    []string `yaml:"datasets" json:"datasets"`               // owner/slug refs (owner/slug@N pins version N) to take besides the search
	// Files, if set, downloads only the dataset files whose path matches
	// one of these globs (as local.include matches), one file at a time,
	// instead of each dataset's whole archive. Competitions are always
	// downloaded whole.
	Files []string `yaml:"files" json:"files,omitempty"`
	// KagglehubCache is kagglehub's cache folder, read before downloading
	// a dataset version kagglehub already holds; empty: $KAGGLEHUB_CACHE,
	// else ~/.cache/kagglehub; "off": never read.
	KagglehubCache string `yaml:"kagglehub_cache" json:"kagglehub_cache,omitempty"`
	// RequestsPerMinute bounds API calls (0: 30). Retries is how often a
	// 429, 5xx or transport error is retried (0: 4; <0: none).
	RequestsPerMinute int `yaml:"requests_per_minute" json:"requests_per_minute"`
	Retries           int `yaml:"retries" json:"retries"`
}

// ArxivConfig is the arxiv:QUERY source's options.
type ArxivConfig struct {
	BaseURL string `yaml:"base_url" json:"base_url"` // empty: https://export.arxiv.org/api/query
	// OAIURL is the OAI-PMH endpoint licenses are read from (the Atom API
	// does not carry them); empty: https://oaipmh.arxiv.org/oai.
	OAIURL     string   `yaml:"oai_url" json:"oai_url"`
	Categories []string `yaml:"categories" json:"categories"`   // cs.CL, stat.ML, …: ANDed with the query
	MaxResults int      `yaml:"max_results" json:"max_results"` // papers; 0: 10
	Sort       string   `yaml:"sort" json:"sort"`               // relevance, lastUpdatedDate, submittedDate
	// Source also downloads each paper's source tarball and keeps its .tex
	// and .txt files.
	Source bool `yaml:"source" json:"source"`
	// DelaySeconds is the pause between requests to each host; arXiv asks
	// for at least 3, and smaller values are raised to 3 for arxiv.org
	// hosts (a mirror or a local server takes the value as set).
	DelaySeconds float64 `yaml:"delay_seconds" json:"delay_seconds"`
	Retries      int     `yaml:"retries" json:"retries"` // 0: 3; <0: none
	// IDs are papers to take by identifier (2101.00001, 2101.00001v2 pins
	// that version, hep-ex/0307015), besides the query; an arxiv: spec of
	// identifiers alone (arxiv:2101.00001v2,2102.00002) does the same.
	IDs []string `yaml:"ids" json:"ids,omitempty"`
	// Abstracts also keeps each paper's title and abstract as a text file
	// (<id><version>.abstract.txt).
	Abstracts bool `yaml:"abstracts" json:"abstracts,omitempty"`
	// From and Until (YYYY-MM-DD), when From is set, list papers by
	// harvesting OAI-PMH (ListRecords, arXivRaw metadata with licenses and
	// versions, a page per request, paced as delay_seconds says) for that
	// range of datestamps instead of searching; Set narrows the harvest to
	// an OAI set (cs, math, physics:hep-ex, …). The query's words, if any,
	// must then all appear in a paper's title or abstract, and categories
	// in its categories.
	From  string `yaml:"from" json:"from,omitempty"`
	Until string `yaml:"until" json:"until,omitempty"`
	Set   string `yaml:"set" json:"set,omitempty"`
}

// ParseSince reads sources.since: a day (YYYY-MM-DD), as its first
// instant in UTC; empty is the zero time (no filter).
func ParseSince(s string) (time.Time, error) {
	if strings.TrimSpace(s) == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse("2006-01-02", strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("sources.since %q: want a day such as 2026-01-31", s)
	}
	return t, nil
}

// ParseIdleTimeout reads sources.idle_timeout: a Go duration ("90s",
// "2m"); empty is 0 (the fetch default).
func ParseIdleTimeout(s string) (time.Duration, error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("sources.idle_timeout %q: want a duration such as 60s or 2m", s)
	}
	return d, nil
}
