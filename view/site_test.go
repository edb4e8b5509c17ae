package view

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"synth/schemas"
	"testing"
	"unicode/utf8"
)

// build writes the site of inputs into a new folder and returns it.
func build(t *testing.T, copy bool, inputs ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(context.Background(), Options{Inputs: inputs, Out: out, Copy: copy}); err != nil {
		t.Fatal(err)
	}
	return out
}

// readJSONP decodes a data file the site wrote: call(JSON);
func readJSONP(t *testing.T, path, call string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.TrimSpace(string(b))
	body, ok := strings.CutPrefix(s, call)
	if !ok || !strings.HasSuffix(body, ");") {
		t.Fatalf("%s: not %s…);", path, call)
	}
	if err := json.Unmarshal([]byte(strings.TrimSuffix(body, ");")), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readPage(t *testing.T, site string, n int) Page {
	t.Helper()
	var p Page
	readJSONP(t, filepath.Join(site, pagePath(n)), "synthPage(", &p)
	return p
}

// indexRows reads every index chunk of a site.
func indexRows(t *testing.T, site string) [][]any {
	t.Helper()
	var m siteMeta
	readJSONP(t, filepath.Join(site, "data", "meta.js"), "synthMeta(", &m)
	var rows [][]any
	for i := range m.Chunks {
		var chunk [][]any
		readJSONP(t, filepath.Join(site, "data", "i", pad5(i)+".js"), "synthIndex("+itoa(i)+",", &chunk)
		rows = append(rows, chunk...)
	}
	if len(rows) != m.Pages {
		t.Fatalf("the index holds %d rows, meta says %d pages", len(rows), m.Pages)
	}
	return rows
}

func pad5(i int) string { s := "00000" + itoa(i); return s[len(s)-5:] }
func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestBuildRunEveryTrajectoryHasAPageAndARow(t *testing.T) {
	run := t.TempDir()
	n := writeRun(t, run, firstChunkRows+chunkRows+5) // three index chunks
	site := build(t, false, run)
	rows := indexRows(t, site)
	if len(rows) != n {
		t.Fatalf("%d rows for %d trajectories", len(rows), n)
	}
	for i, r := range rows {
		if int(r[0].(float64)) != i {
			t.Fatalf("row %d is numbered %v", i, r[0])
		}
		if _, err := os.Stat(filepath.Join(site, pagePath(i))); err != nil {
			t.Fatalf("row %d has no page: %v", i, err)
		}
	}
	p := readPage(t, site, 0)
	if p.Task.Query != "Drop the rows with nulls from sales.csv" || len(p.Sides) != 1 || p.Sides[0].FinalAnswer != "GOOD-ANSWER 2 rows" {
		t.Errorf("page 0: %+v", p)
	}
	if f := p.Task.Files; len(f) != 1 || f[0].Show != ShowTable || f[0].Table.Sheets[0].Rows[2][1] != "<b>20</b>" {
		t.Errorf("input file: %+v", f)
	}
	if a := p.Sides[0].Artifacts; len(a) != 1 || a[0].Show != ShowImage || a[0].Src == nil || a[0].Src.Root != 0 {
		t.Errorf("artifact: %+v", a)
	}
}

func TestHostileArtifactsStayData(t *testing.T) {
	run := t.TempDir()
	writeRun(t, run, 0)
	// An artifact stored as a link out of the run is not followed.
	link := storeArtifact(t, run, "output/link.txt", []byte("placeholder"))
	linkPath := filepath.Join(run, "artifacts", link.SHA256[:2], link.SHA256)
	os.Remove(linkPath)
	secret := filepath.Join(t.TempDir(), "secret.txt")
	mustWrite(t, secret, "SECRET-OUTSIDE-THE-RUN")
	if err := os.Symlink(secret, linkPath); err != nil {
		t.Fatal(err)
	}
	var tr map[string]any
	lines := strings.Split(strings.TrimSpace(readString(t, filepath.Join(run, "trajectories.jsonl"))), "\n")
	json.Unmarshal([]byte(lines[1]), &tr)
	tr["artifacts"] = append(tr["artifacts"].([]any), link)
	writeJSONL(t, filepath.Join(run, "trajectories.jsonl"), []any{json.RawMessage(lines[0]), tr})

	site := build(t, false, run)
	p := readPage(t, site, 1)
	byName := map[string]*Media{}
	for _, m := range p.Sides[0].Artifacts {
		byName[m.Name] = m
	}
	if m := byName["output/page.html"]; m == nil || m.Show != ShowHTML || !strings.Contains(m.HTML, "HTML-ARTIFACT") {
		t.Errorf("HTML artifact: %+v", m)
	}
	if m := byName["output/pic.svg"]; m == nil || m.Show != ShowImage || !strings.HasPrefix(m.Data, "data:image/svg+xml;base64,") {
		t.Errorf("SVG artifact: %+v", m)
	}
	if m := byName["output/escape.txt"]; m == nil || m.Src != nil || m.Show != ShowNone {
		t.Errorf("an artifact whose hash is a path: %+v", m)
	}
	if m := byName["output/link.txt"]; m == nil || m.Src != nil || strings.Contains(m.Text, "SECRET") {
		t.Errorf("an artifact linked out of the run: %+v", m)
	}
	if f := p.Task.Files; len(f) != 1 || f[0].Name != `q"<u>.csv` {
		t.Errorf("input named with quotes: %+v", f)
	}
	err := filepath.WalkDir(site, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(path)
		if bytes.Contains(b, []byte("SECRET-OUTSIDE")) {
			t.Errorf("%s holds a file from outside the run", path)
		}
		if strings.HasPrefix(path, filepath.Join(site, "data")) && bytes.Contains(b, []byte("<script")) {
			t.Errorf("%s holds <script unescaped", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCopyGivesSafeExtensions(t *testing.T) {
	run := t.TempDir()
	writeRun(t, run, 0)
	site := build(t, true, run)
	p := readPage(t, site, 1)
	for _, m := range p.Sides[0].Artifacts {
		if m.Src == nil {
			continue
		}
		if m.Src.Root != -1 || !strings.HasPrefix(m.Src.Path, "media/") {
			t.Errorf("%s: not copied: %+v", m.Name, m.Src)
			continue
		}
		ext := filepath.Ext(m.Src.Path)
		if (m.Kind == "html" || m.Kind == "svg") && ext != "" {
			t.Errorf("%s copied as %s: a browser could run it", m.Name, m.Src.Path)
		}
		if _, err := os.Stat(filepath.Join(site, m.Src.Path)); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
	}
	if p0 := readPage(t, site, 0); filepath.Ext(p0.Sides[0].Artifacts[0].Src.Path) != ".png" {
		t.Errorf("PNG copied as %s", p0.Sides[0].Artifacts[0].Src.Path)
	}
}

func TestBuildRefusesAFolderItDidNotWrite(t *testing.T) {
	run := t.TempDir()
	writeRun(t, run, 0)
	out := t.TempDir()
	mustWrite(t, filepath.Join(out, "thesis.tex"), "mine")
	_, err := Build(context.Background(), Options{Inputs: []string{run}, Out: out})
	if !errors.Is(err, ErrNotASite) {
		t.Fatalf("err %v, want ErrNotASite", err)
	}
	if _, err := os.Stat(filepath.Join(out, "thesis.tex")); err != nil {
		t.Fatal("the folder's file is gone")
	}
	site := build(t, false, run)
	if _, err := Build(context.Background(), Options{Inputs: []string{run}, Out: site}); err != nil {
		t.Errorf("rewriting a site: %v", err)
	}
}

func TestDetect(t *testing.T) {
	run := t.TempDir()
	writeRun(t, run, 0)
	eval := t.TempDir()
	mustWrite(t, filepath.Join(eval, "results.jsonl"), "")
	for _, tc := range []struct {
		dir, kind, errText string
	}{
		{run, KindRun, ""},
		{eval, KindEval, ""},
		{t.TempDir(), "", "neither a run"},
		{filepath.Join(run, "run.json"), "", "is a file"},
		{filepath.Join(run, "missing"), "", "no such file"},
	} {
		kind, err := Detect(tc.dir)
		if kind != tc.kind || (tc.errText == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.errText)) {
			t.Errorf("Detect(%s) = %q, %v; want %q, %q", tc.dir, kind, err, tc.kind, tc.errText)
		}
	}
	if _, err := Build(context.Background(), Options{Inputs: []string{run, run}, Out: filepath.Join(t.TempDir(), "s")}); err == nil || !strings.Contains(err.Error(), "both are eval results") {
		t.Errorf("two runs: %v", err)
	}
}

func TestServeSendsInputsAsDataOnly(t *testing.T) {
	run := t.TempDir()
	writeRun(t, run, 0)
	site := build(t, false, run)
	h, err := Handler(site)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	p := readPage(t, site, 1)
	var html, png string
	for _, m := range append(p.Sides[0].Artifacts, readPage(t, site, 0).Sides[0].Artifacts...) {
		switch {
		case m.Kind == "html":
			html = m.Src.Path
		case m.Kind == "png":
			png = m.Src.Path
		}
	}
	for _, tc := range []struct {
		path, status, ctype, csp string
	}{
		{"/index.html", "200", "text/html", "script-src 'self'"},
		{"/_in/0/" + html, "200", "text/plain", "sandbox"},
		{"/_in/0/" + png, "200", "image/png", "sandbox"},
		{"/_in/0/run.json", "404", "", "sandbox"},
		{"/_in/0/artifacts/../run.json", "404", "", ""},
		{"/_in/1/" + png, "404", "", ""},
		{"/_in/0/files/../../../etc/passwd", "404", "", ""},
	} {
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if !strings.HasPrefix(resp.Status, tc.status) || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.ctype) ||
			!strings.Contains(resp.Header.Get("Content-Security-Policy"), tc.csp) {
			t.Errorf("GET %s: %s, %q, CSP %q", tc.path, resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Security-Policy"))
		}
	}
}

func TestLongMessagesAreCut(t *testing.T) {
	long := strings.Repeat("é", maxMessage) // two bytes a rune
	tr := &schemas.Trajectory{ID: "x", Messages: []schemas.Message{{Role: "user", Content: "short"}, {Role: "user", Content: long}}, FinalAnswer: long}
	sd := sideOf("run", tr)
	for _, got := range []string{sd.Messages[1].Content, sd.FinalAnswer} {
		if len(got) > maxMessage+100 || !utf8.ValidString(got) || !strings.Contains(got, fmt.Sprintf("%d more bytes", maxMessage)) {
			t.Errorf("a long text: %d bytes, ends %q", len(got), got[len(got)-60:])
		}
	}
	if sd.Messages[0].Content != "short" {
		t.Errorf("a short message changed: %q", sd.Messages[0].Content)
	}
}
