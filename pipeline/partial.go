package pipeline

// Partial runs: the first stages of a build alone, and a look at what the
// sources would collect.

import (
	"context"
	"fmt"
	"io"
	"time"

	"synth/config"
	"synth/sources"
	"synth/sources/open"
)

// Collect runs only the collect stage into the run directory opts.Out; a
// later Build with the same config goes on from there.
func Collect(ctx context.Context, cfg config.Config, opts Options) (*Summary, error) {
	start := time.Now()
	r := newBuilder(cfg, opts)
	if err := r.open(ctx); err != nil {
		return nil, err
	}
	if _, err := r.collect(ctx); err != nil {
		return r.sum, err
	}
	r.sum.Elapsed = time.Since(start)
	return r.sum, nil
}

// Generate runs the collect and generate stages into the run directory
// opts.Out (with tasks.validate, every task is proven in the sandbox first);
// a later Build with the same config goes on from there.
func Generate(ctx context.Context, cfg config.Config, opts Options) (*Summary, error) {
	start := time.Now()
	r := newBuilder(cfg, opts)
	defer r.close() // validation may have started the sandbox
	if err := r.open(ctx); err != nil {
		return nil, err
	}
	files, err := r.collect(ctx)
	if err != nil {
		return r.sum, err
	}
	if _, err := newTaskMaker(r).generate(ctx, files); err != nil {
		return r.sum, err
	}
	r.sum.Elapsed = time.Since(start)
	return r.sum, nil
}

// ListSources lists what the sources would collect, with sizes and
// licenses, without downloading anything.
func ListSources(ctx context.Context, cfg config.Config, w io.Writer) error {
	srcs, err := open.OpenAll(cfg.Sources.Specs, cfg.Sources, open.Env{Seed: cfg.Seed, Log: logger(io.Discard)})
	if err != nil {
		return err
	}
	for i, src := range srcs {
		plan, err := sources.Plan(ctx, src)
		if err != nil {
			return fmt.Errorf("source %s: %w", cfg.Sources.Specs[i], err)
		}
		fmt.Fprintf(w, "# %s: %d files\n", cfg.Sources.Specs[i], len(plan))
		if err := sources.WritePlan(w, plan); err != nil {
			return err
		}
	}
	return nil
}
