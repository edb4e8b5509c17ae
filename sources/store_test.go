package sources

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"synth/schemas"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "files", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStorePut(t *testing.T) {
	root := t.TempDir()
	st, err := OpenStore(root)
	if err != nil {
		t.Fatal(err)
	}
	body := readFixture(t, "scores.csv")
	sum := sha256.Sum256(body)
	id := hex.EncodeToString(sum[:])
	src := schemas.Source{Kind: "local", Ref: "a/scores.csv", License: "CC0-1.0"}
	f, err := st.Put(Item{Name: "../../etc/.scores.png", Body: bytes.NewReader(body), Source: src})
	if err != nil {
		t.Fatal(err)
	}
	if f.ID != id || f.Size != int64(len(body)) || f.Type != "csv" || f.Name != "scores.png" {
		t.Errorf("file = %+v", f)
	}
	if f.Source.Ref != src.Ref || f.Source.RetrievedAt.IsZero() || f.Sources != nil {
		t.Errorf("source = %+v, sources = %v", f.Source, f.Sources)
	}
	if f.Preview == nil || f.Preview.Rows != 4 {
		t.Errorf("preview = %+v", f.Preview)
	}
	want := filepath.Join(root, id[:2], id, "scores.png")
	if got := st.Path(f); got != want {
		t.Errorf("Path = %s, want %s", got, want)
	}
	if got, err := os.ReadFile(want); err != nil || !bytes.Equal(got, body) {
		t.Errorf("stored content differs: %v", err)
	}

	// The same content from elsewhere: stored once, both provenances kept.
	src2 := schemas.Source{Kind: "kaggle", Ref: "owner/ds", License: "MIT"}
	g, err := st.Put(Item{Name: "other.csv", Body: bytes.NewReader(body), Source: src2})
	if err != nil {
		t.Fatal(err)
	}
	if g.ID != f.ID || g.Name != "scores.png" || g.Type != "csv" || g.Preview == nil {
		t.Errorf("duplicate = %+v", g)
	}
	if g.DuplicateOf != id || g.Source.Ref != "owner/ds" || g.Sources != nil {
		t.Errorf("duplicate's provenance = %+v (of %q), sources %v; want owner/ds alone, of %s", g.Source, g.DuplicateOf, g.Sources, id)
	}
	if got := st.Provenance(id); len(got) != 2 || got[0].Ref != src.Ref || got[1].Ref != "owner/ds" {
		t.Errorf("Provenance = %+v", got)
	}
	// The same provenance again adds nothing: the first record comes back.
	again, err := st.Put(Item{Name: "other.csv", Body: bytes.NewReader(body), Source: src2})
	if err != nil {
		t.Fatal(err)
	}
	if again.DuplicateOf != "" || again.Source.Ref != src.Ref || len(st.Provenance(id)) != 2 {
		t.Errorf("a known provenance again: %+v, provenance %d", again, len(st.Provenance(id)))
	}
	ents, _ := os.ReadDir(filepath.Join(root, id[:2], id))
	if len(ents) != 1 {
		t.Errorf("%d entries stored for one content", len(ents))
	}

	// A new process over the same root finds the content on disk.
	st2, err := OpenStore(root)
	if err != nil {
		t.Fatal(err)
	}
	h, err := st2.Put(Item{Name: "again.csv", Body: bytes.NewReader(body), Source: src2})
	if err != nil {
		t.Fatal(err)
	}
	if h.Name != "scores.png" || h.Preview == nil {
		t.Errorf("after reopen = %+v", h)
	}
	if tmp, _ := os.ReadDir(filepath.Join(root, ".tmp")); len(tmp) != 0 {
		t.Errorf("temp files left: %v", tmp)
	}
}

func TestStoreRejects(t *testing.T) {
	st, err := OpenStoreWith(t.TempDir(), StoreOptions{MaxFileBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	png := readFixture(t, "red.png")
	cases := []struct {
		name   string
		item   Item
		is     error
		inText []string
	}{
		{"empty", Item{Name: "empty.csv", Body: strings.NewReader("")}, ErrEmpty, []string{"empty.csv"}},
		{"declared 2 GB", Item{Name: "huge.bin", Body: endless{}, Size: 2 << 30}, ErrTooLarge, []string{"huge.bin", "1048576", "max_file_bytes"}},
		{"streamed 2 GB", Item{Name: "stream.bin", Body: io.LimitReader(endless{}, 2<<30)}, ErrTooLarge, []string{"stream.bin", "1048576"}},
		{"truncated download", Item{Name: "cut.zip", Body: io.MultiReader(strings.NewReader("PK\x03\x04"), failing{})}, io.ErrUnexpectedEOF, []string{"cut.zip", "after 4 bytes"}},
		{"broken png", Item{Name: "x.png", Body: bytes.NewReader(png[:30])}, nil, []string{"x.png", "png", "unreadable"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := st.Put(tc.item)
			if err == nil {
				t.Fatal("Put succeeded, want an error")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			for _, s := range tc.inText {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
	if tmp, _ := os.ReadDir(filepath.Join(st.Root(), ".tmp")); len(tmp) != 0 {
		t.Errorf("temp files left: %v", tmp)
	}
}

func TestStoreConcurrent(t *testing.T) {
	st, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	ids := make([]string, 40)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf("k,v\n%d,%d\n%d,%d\n", i%4, i%4, i%4, i%4) // 4 distinct contents
			f, err := st.Put(Item{Name: "t.csv", Body: strings.NewReader(body), Source: schemas.Source{Kind: "local", Ref: fmt.Sprint(i)}})
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = f.ID
		}()
	}
	wg.Wait()
	distinct := map[string]bool{}
	for _, id := range ids {
		distinct[id] = true
	}
	if len(distinct) != 4 {
		t.Errorf("%d distinct ids, want 4", len(distinct))
	}
	for id := range distinct {
		if n := len(st.Provenance(id)); n != 10 {
			t.Errorf("%s: %d provenances, want 10", id, n)
		}
	}
}

func TestSanitizeName(t *testing.T) {
	for in, want := range map[string]string{
		"a.csv":                           "a.csv",
		"../../x.csv":                     "x.csv",
		`C:\temp\y.csv`:                   "y.csv",
		".hidden":                         "hidden",
		"...":                             "file",
		"":                                "file",
		"a\x00b\nc.txt":                   "abc.txt",
		strings.Repeat("é", 300) + ".csv": strings.Repeat("é", 98) + ".csv",
	} {
		if got := SanitizeName(in); got != want {
			t.Errorf("SanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// endless reads zeros forever.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// failing fails as a cut connection does.
type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }
