package local

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/internal/testenv"
	"synth/schemas"
	"synth/sources"
	"synth/sources/sourcetest"
)

func tree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "in")
	outside = filepath.Join(base, "secret.txt")
	files := map[string]string{
		"b.csv":          "x,y\n1,2\n",
		"a.txt":          "hello\n",
		"sub/c.csv":      "p,q\n3,4\n",
		"sub/deep/d.png": "not really a png",
		".git/config":    "[core]\n",
		"skip.tmp":       "temp\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(outside, []byte("password"), 0o600); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"leak.txt":     outside,
		"sub/up.txt":   "../../secret.txt",
		"inside.txt":   "a.txt",
		"dirlink":      base,
		"dangling.txt": "nope",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

func collect(t *testing.T, s sources.Source) (names []string, bodies []string) {
	t.Helper()
	err := s.Collect(context.Background(), func(it sources.Item) error {
		b, err := io.ReadAll(it.Body)
		if err != nil {
			return err
		}
		names = append(names, it.Source.Ref)
		bodies = append(bodies, string(b))
		if it.Size != int64(len(b)) {
			t.Errorf("%s: Size %d, read %d", it.Name, it.Size, len(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names, bodies
}

func TestCollect(t *testing.T) {
	root, _ := tree(t)
	cases := []struct {
		name string
		opts Options
		want []string
	}{
		{"all", Options{}, []string{"a.txt", "b.csv", "inside.txt", "skip.tmp", "sub/c.csv", "sub/deep/d.png"}},
		{"include csv", Options{Include: []string{"*.csv"}}, []string{"b.csv", "sub/c.csv"}},
		{"include sub tree", Options{Include: []string{"sub/**"}}, []string{"sub/c.csv", "sub/deep/d.png"}},
		{"exclude", Options{Exclude: []string{"*.tmp", "sub/deep/**"}}, []string{"a.txt", "b.csv", "inside.txt", "sub/c.csv"}},
		{"hidden", Options{Hidden: true, Include: []string{".git/*"}}, []string{".git/config"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, bodies := collect(t, New(root, tc.opts))
			if !slices.Equal(got, tc.want) {
				t.Errorf("collected %v, want %v", got, tc.want)
			}
			for _, b := range bodies {
				if strings.Contains(b, "password") {
					t.Error("read a file outside the folder through a symlink")
				}
			}
		})
	}
}

func TestCollectErrors(t *testing.T) {
	err := New(filepath.Join(t.TempDir(), "missing"), Options{}).Collect(context.Background(), func(sources.Item) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "missing") || !strings.Contains(err.Error(), "local:PATH") {
		t.Errorf("missing folder: %v", err)
	}
	root, _ := tree(t)
	err = New(root, Options{Include: []string{"[bad"}}).Collect(context.Background(), func(sources.Item) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "[bad") {
		t.Errorf("bad glob: %v", err)
	}
}

func TestPlan(t *testing.T) {
	root, _ := tree(t)
	p, err := New(root, Options{Include: []string{"*.csv"}, License: "CC0-1.0"}).(sources.Planner).Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(p) != 2 || p[0].Size != 8 || p[0].Source.License != "CC0-1.0" || !strings.HasPrefix(p[0].Source.URL, "file:///") {
		t.Errorf("plan = %+v", p)
	}
}

func TestConformance(t *testing.T) {
	sourcetest.Run(t, func(t *testing.T) sources.Source {
		root, _ := tree(t)
		return New(root, Options{})
	}, sourcetest.Options{})
}

// A 2 GB file (sparse: it takes no disk) is refused by the store's default
// limit from its size alone; the rest of the folder is kept.
func TestHugeFileSkipped(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "small.csv"), []byte("a,b\n1,2\n"), 0o644)
	f, err := os.Create(filepath.Join(root, "huge.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		testenv.Missing(t, "needs a file system with sparse files for TMPDIR: %v", err)
	}
	f.Close()
	st, err := sources.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	var names []string
	stats, err := sources.Collect(context.Background(), New(root, Options{}), st, sources.Limits{}, slog.New(slog.NewTextHandler(&logs, nil)), func(f schemas.File) error {
		names = append(names, f.Name)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"small.csv"}) || stats.Skipped["too_large"] != 1 {
		t.Errorf("stored %v, stats %+v", names, stats)
	}
	if !strings.Contains(logs.String(), "huge.csv") || !strings.Contains(logs.String(), "max_file_bytes") {
		t.Errorf("log does not explain the skip:\n%s", logs.String())
	}
}
