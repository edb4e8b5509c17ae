package kaggle

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"synth/sources"
)

// hubCacheOff turns the kagglehub cache off in sources.kaggle.kagglehub_cache.
const hubCacheOff = "off"

// hubCache is the root of kagglehub's cache ($KAGGLEHUB_CACHE, else
// ~/.cache/kagglehub), or sources.kaggle.kagglehub_cache when set; "" when
// it is off.
func (s *Source) hubCache() string {
	switch c := s.cfg.KagglehubCache; c {
	case hubCacheOff:
		return ""
	case "":
	default:
		return c
	}
	getenv := s.opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("KAGGLEHUB_CACHE"); d != "" {
		return d
	}
	home := getenv("HOME")
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".cache", "kagglehub")
}

// fromHubCache puts the files of a dataset version that kagglehub already
// downloaded and marked complete (<root>/datasets/OWNER/SLUG/versions/N/,
// with the marker <root>/datasets/OWNER/SLUG/N.complete), so a user of
// both tools downloads it once. It reports false when the cache lacks that
// version. Only regular files are taken; a link is skipped.
func (s *Source) fromHubCache(ctx context.Context, d set, put func(sources.Item) error) (bool, error) {
	root := s.hubCache()
	owner, slug, ok := strings.Cut(d.ref, "/")
	if root == "" || d.competition != "" || d.version <= 0 || !ok {
		return false, nil
	}
	if _, ok := sources.SafeEntryPath(d.ref); !ok || strings.Contains(slug, "/") {
		return false, nil
	}
	base := filepath.Join(root, "datasets", owner, slug)
	ver := filepath.Join(base, "versions", strconv.Itoa(d.version))
	if _, err := os.Stat(filepath.Join(base, strconv.Itoa(d.version)+".complete")); err != nil {
		return false, nil
	}
	if st, err := os.Lstat(ver); err != nil || !st.IsDir() {
		return false, nil
	}
	n := 0
	err := filepath.WalkDir(ver, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !e.Type().IsRegular() {
			return nil // directories are walked; links and devices are not taken
		}
		rel, _ := filepath.Rel(ver, p)
		rel = filepath.ToSlash(rel)
		if len(s.cfg.Files) > 0 && !s.wanted(rel) {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		n++
		if err := put(sources.Item{Name: path.Base(rel), Body: f, Size: st.Size(), Source: s.provenance(d, rel)}); err != nil {
			return putError{err}
		}
		return nil
	})
	if err != nil {
		return true, err
	}
	s.log.Info("collected from kagglehub's cache", "source", "kaggle", "dataset", d.ref, "version", d.version, "files", n, "cache", ver)
	return true, nil
}
