package writer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// TestPerturb: a table loses every third row and has its floats scaled,
// keeping its delimiter; a JSON document nothing of which would change,
// and tables too small, are left as they are with the reason.
func TestPerturb(t *testing.T) {
	p := newProver(t)
	dir := t.TempDir()
	write := func(name, body string) sandbox.Input {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return sandbox.Input{Name: name, Path: path}
	}
	inputs := []sandbox.Input{
		write("semi.csv", "city;temp;n\na;1.5;1\nb;2.5;2\nc;3.0;3\nd;4.0;4\n"),
		write("notes.json", `{"a": 1}`),
		write("tiny.csv", "k,v\nx,1\n"),
	}
	files := []schemas.TaskFile{{Name: "semi.csv", Type: "csv"}, {Name: "notes.json", Type: "json"}, {Name: "tiny.csv", Type: "csv"}}
	got, changed, skipped, err := p.perturb(context.Background(), files, inputs, filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	if changed != 1 || len(got) != 3 || got[1] != inputs[1] || got[2] != inputs[2] {
		t.Fatalf("changed %d, inputs %+v", changed, got)
	}
	if len(skipped) != 2 || !strings.Contains(skipped[0], "JSON document with no array of three or more items") || !strings.Contains(skipped[1], "too small") {
		t.Errorf("skipped %q", skipped)
	}
	b, err := os.ReadFile(got[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "city;temp;n\na;2.25;1\nc;4.5;3\nd;6.0;4\n"; string(b) != want {
		t.Errorf("perturbed semi.csv:\n%s\nwant:\n%s", b, want)
	}
}
