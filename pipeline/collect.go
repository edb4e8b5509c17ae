package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
	"synth/sources"
	_ "synth/sources/arrowpreview" // previews of Parquet and Arrow inputs
	"synth/sources/open"
)

// collect gathers the files of every source into the content-addressed store
// and the files.jsonl manifest, applying the sources section's limits and
// license allow-list. A finished collection is read back, not redone.
func (r *builder) collect(ctx context.Context) (*fileSet, error) {
	store, fs, err := r.knownFiles()
	if err != nil {
		return nil, err
	}
	if r.info.Done(runinfo.StageCollect) {
		r.sum.add("collect", 0, len(fs.order), "files (%s)", typeCounts(fs))
		return fs, nil
	}
	srcs, err := open.OpenAll(r.cfg.Sources.Specs, r.cfg.Sources, open.Env{
		Seed: r.cfg.Seed, CacheDir: filepath.Join(r.dir, rundir.SourcesCacheDir), Log: logger(r.log),
	})
	if err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	j, err := rundir.OpenJournal(filepath.Join(r.dir, rundir.Files))
	if err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	defer j.Close()
	var collected []runinfo.Collected
	for i, src := range srcs {
		spec := r.cfg.Sources.Specs[i]
		st, err := sources.Collect(ctx, src, store, sources.LimitsFrom(r.cfg.Sources), logger(r.log), func(f schemas.File) error {
			collected = appendCollected(collected, f)
			return fs.record(j, f, store.Path(f))
		})
		if err != nil {
			return nil, fmt.Errorf("collect: source %s: %w", spec, err)
		}
		r.logf("collect: %s: %d files, %d duplicates%s", spec, st.Stored, st.Duplicates, skippedNote(st.Skipped))
		for _, f := range st.Refused {
			r.info.NotCollected = append(r.info.NotCollected, runinfo.UntaskedFile{Name: f.Name, Reason: f.Reason, Detail: f.Detail})
		}
	}
	if err := j.Sync(); err != nil {
		return nil, err
	}
	if len(r.opts.Expect) > 0 {
		if err := runinfo.CheckCollected(r.opts.Expect, collected); err != nil {
			return nil, fmt.Errorf("collect: %w", err)
		}
		r.logf("collect: every pinned file came again with its recorded bytes (%d files)", len(r.opts.Expect))
	}
	r.info.Collected = collected
	if err := r.info.MarkDone(r.dir, runinfo.StageCollect); err != nil {
		return nil, err
	}
	r.sum.add("collect", 0, len(fs.order), "files (%s)", typeCounts(fs))
	return fs, nil
}

// appendCollected notes a file of a network source for run.json: its
// provenance's ref and version and its bytes' sha256.
func appendCollected(c []runinfo.Collected, f schemas.File) []runinfo.Collected {
	if f.Source.Kind != sources.KindKaggle && f.Source.Kind != sources.KindArxiv {
		return c
	}
	sum := f.ID
	if f.DuplicateOf != "" {
		sum = f.DuplicateOf
	}
	return append(c, runinfo.Collected{Kind: f.Source.Kind, Ref: f.Source.Ref, Version: f.Source.Version, SHA256: sum})
}

// knownFiles opens the run's file store and reads back the files
// files.jsonl records.
func (r *builder) knownFiles() (*sources.Store, *fileSet, error) {
	opt, err := sources.StoreOptionsFrom(r.cfg.Sources)
	if err != nil {
		return nil, nil, fmt.Errorf("collect: %w", err)
	}
	store, err := sources.OpenStoreWith(filepath.Join(r.dir, rundir.FilesDir), opt)
	if err != nil {
		return nil, nil, fmt.Errorf("collect: %w", err)
	}
	fs := &fileSet{byID: map[string]schemas.File{}, path: map[string]string{}}
	known, err := rundir.ReadAll[schemas.File](filepath.Join(r.dir, rundir.Files))
	if err != nil {
		return nil, nil, fmt.Errorf("collect: %w", err)
	}
	for _, f := range known {
		store.Seed(f) // later duplicates add their provenance to it
		if f.DuplicateOf != "" {
			fs.addSource(f.DuplicateOf, f.Source)
			continue
		}
		fs.set(f, store.Path(f)) // a manifest from before reference records repeats a file with more provenance
	}
	return store, fs, nil
}

// logger writes a library's structured log lines into the run's log,
// without timestamps.
func logger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
}

func skippedNote(skipped map[string]int) string {
	if len(skipped) == 0 {
		return ""
	}
	return ", skipped: " + runinfo.CountsNote(skipped)
}

func typeCounts(fs *fileSet) string {
	n := map[string]int{}
	for _, f := range fs.byID {
		n[f.Type]++
	}
	return runinfo.CountsNote(n)
}
