package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"synth/schemas"
	"synth/sources"
)

// collect gathers the files of every source into the content-addressed store
// and the files.jsonl manifest. A finished collection is read back, not
// redone.
func (r *run) collect(ctx context.Context) (*fileSet, error) {
	store, err := sources.OpenStore(filepath.Join(r.dir, filesDir))
	if err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	fs := &fileSet{byID: map[string]schemas.File{}, path: map[string]string{}}
	known, err := ReadAll[schemas.File](filepath.Join(r.dir, filesJournal))
	if err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	for _, f := range known {
		fs.add(f, store.Path(f))
	}
	if r.info.done(stageCollect) {
		r.sum.add("collect", 0, len(fs.order), "files (%s)", typeCounts(fs))
		return fs, nil
	}
	j, err := OpenJournal(filepath.Join(r.dir, filesJournal))
	if err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	defer j.Close()
	for _, spec := range r.cfg.Sources.Specs {
		src, err := openSource(spec, r.cfg)
		if err != nil {
			return nil, fmt.Errorf("collect: %w", err)
		}
		n := 0
		err = src.Collect(ctx, func(it sources.Item) error {
			f, err := store.Put(it)
			if err != nil {
				r.logf("collect: %s: skipped %s: %v", spec, it.Name, err)
				return nil
			}
			n++
			if _, seen := fs.byID[f.ID]; seen {
				return nil
			}
			fs.add(f, store.Path(f))
			return j.Append(f)
		})
		if err != nil {
			return nil, fmt.Errorf("collect: source %s: %w", spec, err)
		}
		r.logf("collect: %s: %d files", spec, n)
	}
	if err := j.Sync(); err != nil {
		return nil, err
	}
	if err := r.info.markDone(r.dir, stageCollect); err != nil {
		return nil, err
	}
	r.sum.add("collect", 0, len(fs.order), "files (%s)", typeCounts(fs))
	return fs, nil
}

func (fs *fileSet) add(f schemas.File, path string) {
	if _, ok := fs.byID[f.ID]; ok {
		return
	}
	fs.byID[f.ID] = f
	fs.path[f.ID] = path
	fs.order = append(fs.order, f.ID)
}

func typeCounts(fs *fileSet) string {
	n := map[string]int{}
	for _, f := range fs.byID {
		n[f.Type]++
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, n[k])
	}
	return strings.Join(parts, ", ")
}
