package template

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"

	"synth/generators"
	"synth/pyenv/pyenvtest"
)

// TestTextEncodingsProve: text files in Shift-JIS, latin-1 and UTF-16 are
// read decoded, the reference opens each with its encoding stated, and
// every task proves in the sandbox (Python reads the text Go counted).
func TestTextEncodingsProve(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	enc := func(s string, e interface{ Bytes([]byte) ([]byte, error) }) []byte {
		b, err := e.Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ja := strings.Repeat("Product notes: これは日本語のテキストです。 The widget ships in March.\nSpecs list the widget size and the widget weight.\n", 6)
	fr := strings.Repeat("Le café ouvre à midi. The market sells bread, cheese and bread again.\n", 8)
	ins := []generators.Input{
		writeFile(t, dir, "sjis.txt", "txt", enc(ja, japanese.ShiftJIS.NewEncoder())),
		writeFile(t, dir, "latin1.txt", "txt", append(enc(fr, charmap.ISO8859_1.NewEncoder()), []byte("Fin\x90.\n")...)),
		writeFile(t, dir, "utf16.txt", "txt", enc(ja, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder())),
	}
	tasks, err := New(Options{Seed: 3, Langs: []string{"en"}, Include: []string{"text.lines", "text.wordcount", "text.replace"}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"sjis.txt": "encoding=\"cp932\"", "latin1.txt": "encoding=\"latin-1\"", "utf16.txt": "encoding=\"utf-16\""}
	seen := map[string]bool{}
	for _, task := range tasks {
		name := task.Files[0].Name
		seen[name] = true
		if code := task.Reference.Steps[0].Code; !strings.Contains(code, want[name]) {
			t.Errorf("%s (%s): the reference opens it without %s:\n%s", name, task.Generator, want[name], code)
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("%s: no task", name)
		}
	}
	validateAll(t, tasks, inputPaths(ins))
}
