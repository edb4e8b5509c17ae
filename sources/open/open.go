package open

import (
	"fmt"
	"log/slog"

	"synth/sources"
	"synth/sources/arxiv"
	"synth/sources/kaggle"
	"synth/sources/local"
	"synth/sources/sample"
)

// Env is what a source needs from the run rather than from the config.
type Env struct {
	Seed     int64               // the built-in corpus's seed
	CacheDir string              // where downloads are kept between runs (run dir/cache/sources); empty: none
	Log      *slog.Logger        // nil: slog.Default()
	Getenv   func(string) string // nil: os.Getenv (Kaggle credentials)
}

// Open returns the source spec names, configured by cfg. Errors name the
// spec or the config key to fix (bad sizes, missing Kaggle credentials).
func Open(spec sources.Spec, cfg sources.Config, env Env) (sources.Source, error) {
	arch, err := sources.ArchiveLimitsFrom(cfg.Archive)
	if err != nil {
		return nil, err
	}
	maxFile, err := sources.ParseSize(cfg.MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("sources.max_file_bytes: %w", err)
	}
	idle, err := sources.ParseIdleTimeout(cfg.IdleTimeout)
	if err != nil {
		return nil, err
	}
	since, err := sources.ParseSince(cfg.Since)
	if err != nil {
		return nil, err
	}
	switch spec.Kind {
	case sources.KindSample:
		return sample.New(env.Seed), nil
	case sources.KindLocal:
		lc := cfg.Local
		return local.New(spec.Arg, local.Options{Include: lc.Include, Exclude: lc.Exclude, License: lc.License, Hidden: lc.Hidden, Since: since, Log: env.Log}), nil
	case sources.KindKaggle:
		s, err := kaggle.New(spec.Arg, kaggle.Options{
			Config: cfg.Kaggle, Licenses: cfg.Licenses, MaxFileBytes: maxFile, Archive: arch,
			CacheDir: env.CacheDir, Contact: cfg.Contact, IdleTimeout: idle, Log: env.Log, Getenv: env.Getenv, Since: since,
		})
		if err != nil {
			return nil, fmt.Errorf("--source %s: %w", spec, err)
		}
		return s, nil
	case sources.KindArxiv:
		// Licenses are cached for every run of the user, not only this one.
		s, err := arxiv.New(spec.Arg, arxiv.Options{Config: cfg.Arxiv, Licenses: cfg.Licenses, Archive: arch, LicenseCache: arxiv.UserLicenseCache(),
			CacheDir: env.CacheDir, Contact: cfg.Contact, IdleTimeout: idle, Log: env.Log, Since: since})
		if err != nil {
			return nil, fmt.Errorf("--source %s: %w", spec, err)
		}
		return s, nil
	}
	return nil, fmt.Errorf("--source %s: kind %q cannot be opened here (pybench checkouts are imported with synth import pybench)", spec, spec.Kind)
}

// OpenAll parses and opens every spec.
func OpenAll(specs []string, cfg sources.Config, env Env) ([]sources.Source, error) {
	var out []sources.Source
	for _, raw := range specs {
		spec, err := sources.ParseSpec(raw)
		if err != nil {
			return nil, err
		}
		s, err := Open(spec, cfg, env)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
