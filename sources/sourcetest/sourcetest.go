package sourcetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"synth/schemas"
	"synth/sources"
)

// Options tune the suite to a source.
type Options struct {
	// MinItems is the least number of items the source must yield (0: 1).
	MinItems int
	// PlanMayDiffer allows a plan that names files the collection skips
	// (e.g. a remote listing of files an archive turns out not to hold).
	PlanMayDiffer bool
}

// item is what the suite remembers of an Item.
type item struct {
	name, sum string
	size      int64
	src       schemas.Source
}

// Run checks the source made by newSource against the Source contract.
// newSource is called once per subtest and must return a source over the
// same content each time.
func Run(t *testing.T, newSource func(t *testing.T) sources.Source, opts Options) {
	t.Helper()
	if opts.MinItems == 0 {
		opts.MinItems = 1
	}
	var first []item
	t.Run("Items", func(t *testing.T) {
		src := newSource(t)
		if src.Kind() == "" || strings.ContainsAny(src.Kind(), ": /") {
			t.Errorf("Kind() = %q, want a bare word (sample, local, kaggle, …)", src.Kind())
		}
		first = collectAll(t, src)
		if len(first) < opts.MinItems {
			t.Fatalf("collected %d items, want at least %d", len(first), opts.MinItems)
		}
		for _, it := range first {
			if it.name == "" || strings.ContainsAny(it.name, `/\`) {
				t.Errorf("item name %q: want a base name", it.name)
			}
			if it.src.Kind != src.Kind() {
				t.Errorf("item %s: Source.Kind %q, want %q", it.name, it.src.Kind, src.Kind())
			}
			if it.src.Ref == "" && it.src.URL == "" {
				t.Errorf("item %s: provenance has neither Ref nor URL", it.name)
			}
		}
	})
	t.Run("Deterministic", func(t *testing.T) {
		if first == nil {
			t.Skip("no first collection")
		}
		again := collectAll(t, newSource(t))
		if !slices.EqualFunc(first, again, func(a, b item) bool {
			return a.name == b.name && a.sum == b.sum && a.src.Ref == b.src.Ref
		}) {
			t.Errorf("two collections differ:\nfirst  %v\nsecond %v", summary(first), summary(again))
		}
	})
	t.Run("StopsAtPutError", func(t *testing.T) {
		stop := errors.New("put refuses")
		calls := 0
		err := newSource(t).Collect(context.Background(), func(it sources.Item) error {
			calls++
			return stop
		})
		if !errors.Is(err, stop) {
			t.Errorf("Collect = %v, want put's error", err)
		}
		if calls != 1 {
			t.Errorf("put called %d times after failing, want 1", calls)
		}
	})
	t.Run("Cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		err := newSource(t).Collect(ctx, func(it sources.Item) error {
			calls++
			cancel()
			return nil
		})
		if !errors.Is(err, context.Canceled) && !(err == nil && len(first) == 1) {
			t.Errorf("Collect after cancel = %v, want context.Canceled", err)
		}
		if calls != 1 {
			t.Errorf("put called %d times, want 1 (no call after cancel)", calls)
		}
	})
	t.Run("Store", func(t *testing.T) {
		st, err := sources.OpenStore(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		var files []schemas.File
		stats, err := sources.Collect(context.Background(), newSource(t), st, sources.Limits{}, nil, func(f schemas.File) error {
			files = append(files, f)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if stats.Stored == 0 {
			t.Fatalf("nothing stored (skipped %v)", stats.Skipped)
		}
		for _, f := range files {
			if f.Type == "" || f.Type == sources.TypeEmpty {
				t.Errorf("%s: type %q", f.Name, f.Type)
			}
			if f.Source.RetrievedAt.IsZero() {
				t.Errorf("%s: no retrieval time", f.Name)
			}
		}
		limited := 0
		_, err = sources.Collect(context.Background(), newSource(t), st, sources.Limits{MaxFiles: 1}, nil, func(schemas.File) error {
			limited++
			return nil
		})
		if err != nil || limited == 0 || limited > len(files) {
			t.Errorf("with max_files 1: %d files, err %v", limited, err)
		}
	})
	t.Run("Plan", func(t *testing.T) {
		src := newSource(t)
		p, ok := src.(sources.Planner)
		if !ok {
			t.Skipf("%s has no dry run", src.Kind())
		}
		plan, err := p.Plan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, pl := range plan {
			if pl.Source.Kind != src.Kind() || pl.Name == "" {
				t.Errorf("planned %+v: want a name and Source.Kind %q", pl, src.Kind())
			}
		}
		if first != nil && !opts.PlanMayDiffer && len(plan) != len(first) {
			t.Errorf("plan lists %d files, collection yielded %d", len(plan), len(first))
		}
	})
}

func collectAll(t *testing.T, src sources.Source) []item {
	t.Helper()
	var out []item
	err := src.Collect(context.Background(), func(it sources.Item) error {
		if it.Body == nil {
			t.Errorf("item %s has no body", it.Name)
			return nil
		}
		h := sha256.New()
		n, err := io.Copy(h, it.Body)
		if err != nil {
			t.Errorf("item %s: read: %v", it.Name, err)
		}
		if it.Size > 0 && it.Size != n {
			t.Errorf("item %s: Size %d, body has %d bytes", it.Name, it.Size, n)
		}
		out = append(out, item{name: it.Name, sum: hex.EncodeToString(h.Sum(nil)), size: n, src: it.Source})
		return nil
	})
	if err != nil {
		t.Fatalf("Collect: %v", err)
	}
	return out
}

func summary(items []item) []string {
	var s []string
	for _, it := range items {
		s = append(s, it.name+"@"+it.sum[:8])
	}
	return s
}
