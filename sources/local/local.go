package local

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"synth/schemas"
	"synth/sources"
)

// Options filter and label what a folder yields. The zero value takes every
// regular file.
type Options struct {
	// Include, if set, keeps only files matching one of these globs
	// (sources.MatchGlob: relative slash paths, "**", bare patterns match
	// base names).
	Include []string
	// Exclude drops files matching any of these globs; it wins over Include.
	Exclude []string
	// License is recorded as every file's license (a folder has none of its own).
	License string
	// Hidden also takes files and folders whose names start with a dot.
	Hidden bool
	// Since, if set, keeps only files modified at or after it.
	Since time.Time
	// Log receives skipped files (nil: slog.Default()).
	Log *slog.Logger
}

// Source collects a folder's files.
type Source struct {
	dir  string
	opts Options
}

// New returns the source for the folder dir. The folder is checked when
// Collect runs.
func New(dir string, opts Options) sources.Source {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Source{dir: dir, opts: opts}
}

// Kind returns "local".
func (s *Source) Kind() string { return sources.KindLocal }

// Plan lists what Collect would yield, with sizes, reading no content.
func (s *Source) Plan(ctx context.Context) ([]sources.Planned, error) {
	var out []sources.Planned
	err := s.walk(ctx, func(rel, abs string, info fs.FileInfo) error {
		out = append(out, sources.Planned{Name: filepath.Base(rel), Size: info.Size(), Source: s.provenance(rel, abs)})
		return nil
	})
	return out, err
}

// Collect calls put for each regular file under the folder, in lexical
// order of relative path. A symlink is taken only when it resolves to a
// regular file inside the folder; symlinked folders are not entered.
// Unreadable files are logged and skipped; a missing folder is an error.
func (s *Source) Collect(ctx context.Context, put func(sources.Item) error) error {
	return s.walk(ctx, func(rel, abs string, info fs.FileInfo) error {
		f, err := os.Open(abs)
		if err != nil {
			s.opts.Log.Warn("skip unreadable file", "source", "local", "path", abs, "err", err)
			return nil
		}
		defer f.Close()
		return put(sources.Item{Name: filepath.Base(rel), Body: f, Size: info.Size(), Source: s.provenance(rel, abs)})
	})
}

func (s *Source) provenance(rel, abs string) schemas.Source {
	return schemas.Source{
		Kind:    sources.KindLocal,
		Ref:     rel,
		URL:     (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(),
		License: s.opts.License,
	}
}

// walk calls fn for each file Collect takes, with its slash-relative and
// absolute paths and its (resolved) info.
func (s *Source) walk(ctx context.Context, fn func(rel, abs string, info fs.FileInfo) error) error {
	for _, g := range append(append([]string(nil), s.opts.Include...), s.opts.Exclude...) {
		if err := sources.ValidGlob(g); err != nil {
			return fmt.Errorf("local %s: glob %q: %w", s.dir, g, err)
		}
	}
	root, err := filepath.Abs(s.dir)
	if err != nil {
		return fmt.Errorf("local %s: %w", s.dir, err)
	}
	root, err = filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("local %s: folder not found (check the path in --source local:PATH): %w", s.dir, err)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return fmt.Errorf("local %s: not a folder (--source local:PATH wants a folder)", s.dir)
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return fmt.Errorf("local %s: %w", s.dir, err)
			}
			s.opts.Log.Warn("skip unreadable path", "source", "local", "path", p, "err", err)
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if !s.opts.Hidden && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !s.wanted(rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			s.opts.Log.Warn("skip unreadable path", "source", "local", "path", p, "err", err)
			return nil
		}
		if !s.opts.Since.IsZero() && info.ModTime().Before(s.opts.Since) {
			s.opts.Log.Info("skip file: older than sources.since", "source", "local", "path", rel, "modified", info.ModTime().UTC().Format(time.DateOnly))
			return nil
		}
		abs := p
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(p)
			if err != nil {
				s.opts.Log.Warn("skip broken symlink", "source", "local", "path", p, "err", err)
				return nil
			}
			if !inside(root, target) {
				s.opts.Log.Warn("skip symlink out of the folder", "source", "local", "path", p, "target", target)
				return nil
			}
			if info, err = os.Stat(target); err != nil || !info.Mode().IsRegular() {
				s.opts.Log.Warn("skip symlink to a non-file", "source", "local", "path", p, "target", target)
				return nil
			}
			abs = target
		} else if !info.Mode().IsRegular() {
			return nil
		}
		return fn(rel, abs, info)
	})
}

func (s *Source) wanted(rel string) bool {
	for _, g := range s.opts.Exclude {
		if sources.MatchGlob(g, rel) {
			return false
		}
	}
	if len(s.opts.Include) == 0 {
		return true
	}
	for _, g := range s.opts.Include {
		if sources.MatchGlob(g, rel) {
			return true
		}
	}
	return false
}

func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
