package kaggle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"synth/sources"
	"synth/sources/fetch"
)

// errUnsafeName is a dataset or file name from Kaggle's answers that would
// lead out of the cache.
var errUnsafeName = errors.New("not a name synth keeps in its cache (an absolute path or one with ..)")

// download fetches what c asks for (a set's archive, or one of its files)
// to a file and returns its path. With a cache dir it is kept as
// <dir>/kaggle/<ref>/<name> (a competition's archive as data.zip): a
// finished download of a known version is reused, and a cut one
// (<final>.part) is resumed, in this run and the next. Within a run
// fetch.Download resumes a cut or stalled body and checks the hash storage
// sends.
func (s *Source) download(ctx context.Context, d set, c call, name string) (string, func(), error) {
	noop := func() {}
	if d.competition != "" {
		c = competitionDownloadCall(d.competition)
	}
	dl := fetch.Download{Request: s.downloadRequest(c), Progress: func(p fetch.Progress) {
		s.log.Info("download", "source", "kaggle", "dataset", d.ref, "bytes", p.Bytes, "total", p.Total, "MB/s", fmt.Sprintf("%.1f", p.Rate/1e6), "done", p.Done)
	}}
	if s.opts.CacheDir == "" {
		tmp, err := os.CreateTemp("", "kaggle-*.part")
		if err != nil {
			return "", noop, err
		}
		tmp.Close()
		remove := func() { os.Remove(tmp.Name()) }
		dl.Path = tmp.Name()
		if err := s.fetch(ctx, d, dl); err != nil {
			remove()
			return "", noop, err
		}
		return tmp.Name(), remove, nil
	}
	if d.competition != "" {
		name = "data.zip"
	}
	// The ref and a file's name come from Kaggle's answers: never a path out
	// of the cache.
	rel, ok := sources.SafeEntryPath(d.ref + "/" + name)
	if !ok || strings.Count(d.ref, "/") != 1 && d.competition == "" {
		return "", noop, fmt.Errorf("download %s: %q: %w", d.ref, d.ref+"/"+name, errUnsafeName)
	}
	final := filepath.Join(s.opts.CacheDir, "kaggle", filepath.FromSlash(rel))
	resumable := d.version > 0 || d.competition != ""
	if resumable {
		if st, err := os.Stat(final); err == nil {
			// A dataset's version never changes; a competition's data may.
			if d.competition == "" {
				return final, noop, nil
			}
			fresh, err := s.cachedFresh(ctx, c, st.ModTime())
			if err != nil {
				return "", noop, fmt.Errorf("download %s: %w", d.ref, err)
			}
			if fresh {
				return final, noop, nil
			}
			s.log.Info("competition data changed since it was cached, or storage does not say when it changed; downloading again", "source", "kaggle", "competition", d.competition, "cached", final)
			os.Remove(final)
		}
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return "", noop, err
	}
	dl.Path, dl.Resume = final+".part", resumable
	if err := s.fetch(ctx, d, dl); err != nil {
		return "", noop, err
	}
	if err := os.Rename(dl.Path, final); err != nil {
		return "", noop, err
	}
	return final, noop, nil
}

// cachedFresh asks for the download and reads only its Last-Modified, as
// kagglehub does for competitions: the cached copy (written at cached) is
// fresh when the data was last modified before it. An answer without
// Last-Modified is never fresh.
func (s *Source) cachedFresh(ctx context.Context, c call, cached time.Time) (bool, error) {
	resp, err := s.client.Do(ctx, s.downloadRequest(c))
	if err != nil {
		return false, err
	}
	resp.Body.Close()
	lm, err := http.ParseTime(resp.Header.Get("Last-Modified"))
	if err != nil {
		return false, nil
	}
	return lm.Before(cached), nil
}

func (s *Source) fetch(ctx context.Context, d set, dl fetch.Download) error {
	res, err := s.client.Download(ctx, dl)
	if err != nil {
		return fmt.Errorf("download %s: %w", d.ref, err)
	}
	if err := errorEnvelope(dl.Path, dl.URL); err != nil {
		os.Remove(dl.Path)
		return fmt.Errorf("download %s: %w", d.ref, err)
	}
	verified := res.Verified
	if verified == "" {
		verified = "no hash sent; length checked"
	}
	s.log.Info("downloaded", "source", "kaggle", "dataset", d.ref, "bytes", res.Size, "resumes", res.Resumes, "verified", verified, "already_complete", res.AlreadyComplete)
	return nil
}

// errorEnvelope reads a small download that is a JSON error envelope
// ({"code": 403, "message": …}) sent with a 2xx status.
func errorEnvelope(path, endpoint string) error {
	st, err := os.Stat(path)
	if err != nil || st.Size() > 64<<10 {
		return err
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 || b[0] != '{' {
		return err
	}
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(b, &e) == nil && e.Code >= 400 {
		return &APIError{Endpoint: endpoint, Code: e.Code, Message: e.Message}
	}
	return nil
}
