package view

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"synth/bench"
	"synth/rundir"
)

// csp is the policy of every page: the site's own scripts and styles only;
// images and media from the site, the linked inputs and data: URLs; frames
// only as srcdoc (which inherit this policy). Pages carry it in a meta tag;
// Serve sends it as a header too.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'"

// Handler serves the site in dir, and under /_in/<i>/ the files and
// artifacts of the inputs it links (read from data/meta.js), each as its
// media type when it is an image, audio or video and as plain text or bytes
// otherwise, in a sandbox, so nothing an input holds runs at the site's
// origin.
func Handler(dir string) (http.Handler, error) {
	roots, err := readRoots(dir)
	if err != nil {
		return nil, err
	}
	site, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	var ins []*os.Root
	for _, r := range roots {
		root, err := os.OpenRoot(filepath.Join(dir, filepath.FromSlash(unescapePath(r.Rel))))
		if err != nil {
			return nil, fmt.Errorf("view: the site links %s: %w", r.Rel, err)
		}
		ins = append(ins, root)
	}
	files := http.FileServerFS(site.FS())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if rest, ok := strings.CutPrefix(r.URL.Path, "/_in/"); ok {
			serveInput(w, r, ins, rest)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/media/") {
			h.Set("Content-Security-Policy", "sandbox")
		}
		files.ServeHTTP(w, r)
	}), nil
}

// serveInput serves rest (<i>/<path>) from input i: only under files/,
// artifacts/ and data/, through the input's root.
func serveInput(w http.ResponseWriter, r *http.Request, ins []*os.Root, rest string) {
	w.Header().Set("Content-Security-Policy", "sandbox")
	i, p, _ := strings.Cut(rest, "/")
	p = path.Clean("/" + p)[1:] // no .. climbs out of files/ or artifacts/
	n, err := strconv.Atoi(i)
	top, _, _ := strings.Cut(p, "/")
	if err != nil || n < 0 || n >= len(ins) || (top != rundir.FilesDir && top != rundir.ArtifactsDir && top != bench.DataDir) {
		http.NotFound(w, r)
		return
	}
	f, err := ins[n].Open(p)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	head := make([]byte, headBytes)
	m, _ := io.ReadFull(f, head)
	w.Header().Set("Content-Type", mimeOf(kindOf(head[:m], p)))
	http.ServeContent(w, r, "", st.ModTime(), f)
}

// readRoots reads the inputs a site links from its data/meta.js.
func readRoots(dir string) ([]siteRoot, error) {
	b, err := os.ReadFile(filepath.Join(dir, "data", "meta.js"))
	if err != nil {
		return nil, fmt.Errorf("view: %s is not a site synth view wrote (%w): run synth view PATH -o %s first", dir, err, dir)
	}
	b = []byte(strings.TrimSpace(string(b)))
	b, ok := bytesCut(b, "synthMeta(", ");")
	var m siteMeta
	if !ok || json.Unmarshal(b, &m) != nil {
		return nil, fmt.Errorf("view: %s/data/meta.js is damaged: run synth view again", dir)
	}
	return m.Roots, nil
}

func bytesCut(b []byte, prefix, suffix string) ([]byte, bool) {
	s, ok := strings.CutPrefix(string(b), prefix)
	if !ok {
		return nil, false
	}
	s, ok = strings.CutSuffix(s, suffix)
	return []byte(s), ok
}

func unescapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if u, err := url.PathUnescape(s); err == nil {
			parts[i] = u
		}
	}
	return strings.Join(parts, "/")
}

// Serve serves the site in dir on addr until ctx is done; ready, if not
// nil, gets the address it listens on.
func Serve(ctx context.Context, dir, addr string, ready func(net.Addr)) error {
	h, err := Handler(dir)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("view: --serve %s: %w", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready(ln.Addr())
	}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("view: --serve %s: %w", addr, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("view: stopped serving %s: %w", dir, err)
	}
	return nil
}
