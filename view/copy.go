package view

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
)

// copyMedia copies f into the site's media/ folder under its hash and an
// extension chosen from its kind (see safeExt), once per content, and
// returns where pages find it. sha is the content's hash when known.
func (s *site) copyMedia(f *os.File, kind, sha string) (*Src, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if !hexID.MatchString(sha) {
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return nil, err
		}
		sha = hex.EncodeToString(h.Sum(nil))
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	rel := "media/" + sha[:2] + "/" + sha + safeExt(kind)
	if s.copied[rel] {
		return &Src{Root: -1, Path: rel}, nil
	}
	dst := filepath.Join(s.out, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, err
	}
	tmp := dst + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(w, f); err != nil {
		w.Close()
		os.Remove(tmp)
		return nil, err
	}
	if err := w.Close(); err != nil {
		os.Remove(tmp)
		return nil, err
	}
	if err := os.Rename(tmp, dst); err != nil {
		return nil, err
	}
	s.copied[rel] = true
	return &Src{Root: -1, Path: rel}, nil
}
