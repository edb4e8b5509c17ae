package sources_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"synth/sources"
	"synth/sources/open"
)

// TestSinceKeepsNewerLocalFiles: sources.since keeps a folder's files
// modified that day or later, and a bad day is an error naming the key.
func TestSinceKeepsNewerLocalFiles(t *testing.T) {
	dir := t.TempDir()
	for name, age := range map[string]time.Duration{"old.csv": 400 * 24 * time.Hour, "new.csv": 0} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("a,b\n1,2\n"), 0o644)
		when := time.Now().Add(-age)
		os.Chtimes(p, when, when)
	}
	cfg := sources.Config{Since: time.Now().Add(-30 * 24 * time.Hour).Format(time.DateOnly)}
	var logs bytes.Buffer
	srcs, err := open.OpenAll([]string{"local:" + dir}, cfg, open.Env{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	srcs[0].Collect(context.Background(), func(it sources.Item) error {
		names = append(names, it.Name)
		return nil
	})
	if !slices.Equal(names, []string{"new.csv"}) {
		t.Errorf("collected %v, want new.csv alone\n%s", names, logs.String())
	}
	if _, err := open.OpenAll([]string{"local:" + dir}, sources.Config{Since: "last week"}, open.Env{}); err == nil {
		t.Error("sources.since: last week was accepted")
	}
}
