package sources

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"synth/schemas"
)

// listSource yields fixed items.
type listSource struct{ items []Item }

func (l *listSource) Kind() string { return "local" }

func (l *listSource) Collect(ctx context.Context, put func(Item) error) error {
	for _, it := range l.items {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := put(it); err != nil {
			return err
		}
	}
	return nil
}

func items(t *testing.T) []Item {
	png := readFixture(t, "red.png")
	src := func(ref, lic string) schemas.Source { return schemas.Source{Kind: "local", Ref: ref, License: lic} }
	return []Item{
		{Name: "a.csv", Body: strings.NewReader("x,y\n1,2\n3,4\n"), Source: src("a.csv", "CC0: Public Domain")},
		{Name: "b.png", Body: bytes.NewReader(png), Source: src("b.png", "MIT")},
		{Name: "c.csv", Body: strings.NewReader("p,q\n5,6\n7,8\n"), Source: src("c.csv", "GPL 2")},
		{Name: "d.csv", Body: strings.NewReader("x,y\n1,2\n3,4\n"), Source: src("d.csv", "CC0-1.0")}, // same as a.csv
		{Name: "e.txt", Body: strings.NewReader(""), Source: src("e.txt", "")},
		{Name: "f.txt", Body: strings.NewReader("notes\n"), Source: src("f.txt", "")},
	}
}

func TestCollect(t *testing.T) {
	cases := []struct {
		name    string
		lim     Limits
		refs    string
		stats   Stats
		logWant string
	}{
		{"all", Limits{}, "a.csv b.png c.csv d.csv f.txt", Stats{Stored: 4, Duplicates: 1, Skipped: map[string]int{"empty": 1}}, "empty file"},
		{"licenses", Limits{Licenses: []string{"CC0-1.0", "MIT"}}, "a.csv b.png d.csv", Stats{Stored: 2, Duplicates: 1, Skipped: map[string]int{"license": 3}}, "GPL 2"},
		{"types", Limits{Types: []string{"png"}}, "b.png", Stats{Stored: 1, Skipped: map[string]int{"type": 5}}, "type not wanted"},
		{"max files", Limits{MaxFiles: 2}, "a.csv b.png", Stats{Stored: 2}, "file limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, err := OpenStore(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			var logs bytes.Buffer
			var refs []string
			stats, err := Collect(context.Background(), &listSource{items(t)}, st, tc.lim, slog.New(slog.NewTextHandler(&logs, nil)), func(f schemas.File) error {
				refs = append(refs, f.Source.Ref)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(refs, " "); got != tc.refs {
				t.Errorf("files %q, want %q", got, tc.refs)
			}
			if stats.Stored != tc.stats.Stored || stats.Duplicates != tc.stats.Duplicates || len(stats.Skipped) != len(tc.stats.Skipped) {
				t.Errorf("stats %+v, want %+v", stats, tc.stats)
			}
			for k, v := range tc.stats.Skipped {
				if stats.Skipped[k] != v {
					t.Errorf("skipped[%s] = %d, want %d", k, stats.Skipped[k], v)
				}
			}
			if !strings.Contains(logs.String(), tc.logWant) {
				t.Errorf("log lacks %q:\n%s", tc.logWant, logs.String())
			}
		})
	}
}

func TestLicenseCounts(t *testing.T) {
	files := []schemas.File{
		{ID: "1", Source: schemas.Source{License: "CC0: Public Domain"}},
		{ID: "2", Source: schemas.Source{License: "CC0-1.0"}, Sources: []schemas.Source{{License: "CC0-1.0"}, {License: "MIT"}}},
		{ID: "3"},
	}
	got := LicenseCounts(files)
	if got["CC0-1.0"] != 2 || got["MIT"] != 1 || got["unknown"] != 1 || len(got) != 3 {
		t.Errorf("LicenseCounts = %v", got)
	}
}
