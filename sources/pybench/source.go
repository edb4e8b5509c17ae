package pybench

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"path/filepath"

	"synth/schemas"
	"synth/sources"
)

// Source returns a source that yields the checkout's input files, so that
// they reach the store (and the run's provenance) like any other files.
// license is recorded for each (PyBench states none per file; empty is fine).
func (c *Checkout) Source(license string) sources.Source {
	return &checkoutSource{c: c, license: license}
}

type checkoutSource struct {
	c       *Checkout
	license string
}

func (s *checkoutSource) Kind() string { return sources.KindPyBench }

func (s *checkoutSource) provenance(f File) schemas.Source {
	abs, _ := filepath.Abs(f.Path)
	return schemas.Source{
		Kind:    sources.KindPyBench,
		Ref:     "data/" + f.Name,
		URL:     (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(),
		License: s.license,
		Title:   "PyBench",
	}
}

// Collect yields the files in name order.
func (s *checkoutSource) Collect(ctx context.Context, put func(sources.Item) error) error {
	for _, f := range s.c.Files {
		if err := ctx.Err(); err != nil {
			return err
		}
		fh, err := sources.OpenBeneath(s.c.Dir, "data/"+f.Name)
		if err != nil {
			return fmt.Errorf("pybench %s: %w", s.c.Dir, err)
		}
		err = put(sources.Item{Name: path.Base(f.Name), Body: fh, Size: f.Size, Source: s.provenance(f)})
		fh.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// Plan lists the files with their sizes.
func (s *checkoutSource) Plan(context.Context) ([]sources.Planned, error) {
	var out []sources.Planned
	for _, f := range s.c.Files {
		out = append(out, sources.Planned{Name: path.Base(f.Name), Size: f.Size, Source: s.provenance(f)})
	}
	return out, nil
}
