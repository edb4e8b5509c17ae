package fetch

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// storage plays a Cloud Storage object: ranges, 416 past the end,
// X-Goog-Hash, and for each request in turn a scripted fault.
type storage struct {
	content []byte
	hash    string   // X-Goog-Hash value; "" : none
	faults  []string // per request: "cut:N" (close after N bytes), "stall:N" (stop after N bytes), "" (serve)
	mu      sync.Mutex
	ranges  []string
	auths   []string
}

func (s *storage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	n := len(s.ranges)
	s.ranges = append(s.ranges, r.Header.Get("Range"))
	s.auths = append(s.auths, r.Header.Get("Authorization"))
	fault := ""
	if n < len(s.faults) {
		fault = s.faults[n]
	}
	s.mu.Unlock()
	if s.hash != "" {
		w.Header().Set("X-Goog-Hash", s.hash)
	}
	body := s.content
	status := http.StatusOK
	if rg := r.Header.Get("Range"); rg != "" {
		from, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
		if from >= len(s.content) {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes */%d", len(s.content)))
			w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
			return
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, len(s.content)-1, len(s.content)))
		body = s.content[from:]
		status = http.StatusPartialContent
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	kind, arg, _ := strings.Cut(fault, ":")
	k, _ := strconv.Atoi(arg)
	switch kind {
	case "cut":
		w.Write(body[:k])
		w.(http.Flusher).Flush()
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	case "stall":
		w.Write(body[:k])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	default:
		w.Write(body)
	}
}

func googHashOf(b []byte) string {
	m := md5.Sum(b)
	c := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	c.Write(b)
	return "crc32c=" + base64.StdEncoding.EncodeToString(c.Sum(nil)) + ",md5=" + base64.StdEncoding.EncodeToString(m[:])
}

// api plays a service whose download call (POST with credentials)
// redirects to storage on another host.
func api(t *testing.T, st *storage) (apiURL string, calls *[]string) {
	t.Helper()
	store := httptest.NewServer(st)
	t.Cleanup(store.Close)
	// "localhost" is another host than "127.0.0.1" for the redirect.
	storeURL := strings.Replace(store.URL, "127.0.0.1", "localhost", 1) + "/bucket/object.zip?sig=1"
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.Header.Get("Authorization")+" "+string(b)+" range="+r.Header.Get("Range"))
		http.Redirect(w, r, storeURL, http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1/Svc/Download", &got
}

func downloadClient() *Client {
	c := New(0, 3)
	c.Backoff = func(int) time.Duration { return time.Millisecond }
	c.IdleTimeout = 150 * time.Millisecond
	c.Authorize = func(r *http.Request) { r.Header.Set("Authorization", "Bearer tok") }
	return c
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	r := rand.NewChaCha8([32]byte{1})
	r.Read(b)
	return b
}

func TestDownloadSurvivesCutAndStall(t *testing.T) {
	content := randomBytes(200_000)
	st := &storage{content: content, hash: googHashOf(content), faults: []string{"cut:1000", "stall:500"}}
	u, calls := api(t, st)
	path := filepath.Join(t.TempDir(), "x.part")
	var progress []Progress
	c := downloadClient()
	c.ProgressEvery = time.Nanosecond
	res, err := c.Download(context.Background(), Download{
		Request: Request{Method: http.MethodPost, URL: u, Body: []byte(`{"ownerSlug":"a"}`)},
		Path:    path, Progress: func(p Progress) { progress = append(progress, p) },
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, content) {
		t.Fatalf("file has %d bytes, differs from the %d served", len(got), len(content))
	}
	if res.Resumes != 2 || res.Verified != "md5" || res.Size != int64(len(content)) {
		t.Errorf("result = %+v, want 2 resumes and md5 verified", res)
	}
	if want := []string{"", "bytes=1000-", "bytes=1500-"}; fmt.Sprint(st.ranges) != fmt.Sprint(want) {
		t.Errorf("ranges = %q, want %q", st.ranges, want)
	}
	for i, a := range st.auths {
		if a != "" {
			t.Errorf("storage request %d carried credentials %q", i, a)
		}
	}
	if len(*calls) != 1 || !strings.HasPrefix((*calls)[0], `POST Bearer tok {"ownerSlug":"a"}`) {
		t.Errorf("service calls = %q, want one POST (resumes go to storage)", *calls)
	}
	last := progress[len(progress)-1]
	if !last.Done || last.Bytes != int64(len(content)) || len(progress) < 2 {
		t.Errorf("progress = %+v", progress)
	}
}

func TestDownloadHashMismatch(t *testing.T) {
	content := randomBytes(5000)
	for _, tc := range []struct{ name, hash, algo string }{
		{"md5", "md5=" + base64.StdEncoding.EncodeToString(make([]byte, 16)), "md5"},
		{"crc32c only", "crc32c=AAAAAA==", "crc32c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &storage{content: content, hash: tc.hash}
			u, _ := api(t, st)
			path := filepath.Join(t.TempDir(), "x.part")
			_, err := downloadClient().Download(context.Background(), Download{Request: Request{URL: u}, Path: path})
			var hm *HashMismatchError
			if !errors.As(err, &hm) || hm.Algo != tc.algo {
				t.Fatalf("err = %v, want a %s mismatch", err, tc.algo)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("a file that failed its hash is kept")
			}
		})
	}
}

func TestDownloadCRC32C(t *testing.T) {
	content := randomBytes(5000)
	h := googHashOf(content)
	st := &storage{content: content, hash: h[:strings.Index(h, ",")]}
	u, _ := api(t, st)
	res, err := downloadClient().Download(context.Background(), Download{Request: Request{URL: u}, Path: filepath.Join(t.TempDir(), "x")})
	if err != nil || res.Verified != "crc32c" {
		t.Errorf("res = %+v, err = %v; want crc32c verified", res, err)
	}
}

func TestDownloadCompletePart(t *testing.T) {
	content := randomBytes(3000)
	st := &storage{content: content, hash: googHashOf(content)}
	u, _ := api(t, st)
	path := filepath.Join(t.TempDir(), "x.part")
	os.WriteFile(path, content, 0o644)
	res, err := downloadClient().Download(context.Background(), Download{Request: Request{URL: u}, Path: path, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.AlreadyComplete || res.Size != 3000 || res.Verified != "md5" {
		t.Errorf("res = %+v, want the complete part recognised and verified", res)
	}
	if st.ranges[0] != "bytes=3000-" {
		t.Errorf("ranges = %q", st.ranges)
	}
}

func TestDownloadResumesAcrossRuns(t *testing.T) {
	content := randomBytes(3000)
	st := &storage{content: content, hash: googHashOf(content)}
	u, calls := api(t, st)
	path := filepath.Join(t.TempDir(), "x.part")
	os.WriteFile(path, content[:1200], 0o644)
	res, err := downloadClient().Download(context.Background(), Download{Request: Request{Method: http.MethodPost, URL: u}, Path: path, Resume: true})
	if err != nil || res.Verified != "md5" {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
		t.Error("resumed file differs")
	}
	if !strings.HasSuffix((*calls)[0], "range=bytes=1200-") || st.ranges[0] != "bytes=1200-" {
		t.Errorf("calls %q, storage ranges %q: want the Range carried through the redirect", *calls, st.ranges)
	}
}

func TestDownloadGivesUp(t *testing.T) {
	content := randomBytes(3000)
	st := &storage{content: content, faults: []string{"cut:100", "cut:0", "cut:0", "cut:0", "cut:0"}}
	u, _ := api(t, st)
	path := filepath.Join(t.TempDir(), "x.part")
	c := downloadClient()
	c.Retries = 2
	_, err := c.Download(context.Background(), Download{Request: Request{URL: u}, Path: path, Resume: true})
	if err == nil || !strings.Contains(err.Error(), "partial file stays") {
		t.Fatalf("err = %v", err)
	}
	if len(st.ranges) != 3 {
		t.Errorf("%d requests, want 3 (one cut with progress, then 2 retries without)", len(st.ranges))
	}
	if b, _ := os.ReadFile(path); len(b) != 100 {
		t.Errorf("partial file has %d bytes, want 100", len(b))
	}
}

func TestIdleTimeoutIsNotATotalTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for range 8 {
			io.WriteString(w, "0123456789")
			w.(http.Flusher).Flush()
			time.Sleep(40 * time.Millisecond)
		}
	}))
	defer srv.Close()
	c := downloadClient()
	c.IdleTimeout = 120 * time.Millisecond
	resp, err := c.Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || len(b) != 80 {
		t.Errorf("read %d bytes, err %v: a slow body that keeps coming was cut", len(b), err)
	}
}

func TestIdleTimeoutBeforeHeaders(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 1 {
			<-r.Context().Done()
			return
		}
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	resp, err := downloadClient().Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if n != 2 {
		t.Errorf("%d requests, want a retry after the silent one", n)
	}
	c := downloadClient()
	c.Retries = 0
	n = 0
	_, err = c.Get(context.Background(), srv.URL)
	var ie *IdleError
	if !errors.As(err, &ie) {
		t.Errorf("err = %v, want an idle timeout", err)
	}
}

func TestHostPacingIsShared(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	a, b := New(0, 0), New(0, 0)
	a.HostEvery, b.HostEvery = 80*time.Millisecond, 80*time.Millisecond
	start := time.Now()
	for _, c := range []*Client{a, b, a} {
		resp, err := c.Get(context.Background(), srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if d := time.Since(start); d < 160*time.Millisecond {
		t.Errorf("3 requests from 2 clients to one host took %s, want >= 160ms", d)
	}
}

func TestUserAgent(t *testing.T) {
	Version = "1.2.3"
	defer func() { Version = "dev" }()
	if got := UserAgent("me@example.org"); got != "synth/1.2.3 (dataset builder; me@example.org)" {
		t.Errorf("UserAgent = %q", got)
	}
}

// TestStatusErrorShowsTheEnvelopeMessage: a JSON error envelope is shown
// by its message, decoded, not as escaped JSON.
func TestStatusErrorShowsTheEnvelopeMessage(t *testing.T) {
	raw := []byte(`{"code":403,"message":"You must accept this competition\u0027s rules."}`)
	e := &StatusError{Method: "POST", URL: "http://k/v1/x", Code: 403, Body: string(raw), Raw: raw}
	if got, want := e.Error(), "POST http://k/v1/x: 403 Forbidden: You must accept this competition's rules."; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	html := []byte("<html>no</html>")
	if got := (&StatusError{URL: "u", Code: 500, Body: string(html), Raw: html}).Error(); got != "GET u: 500 Internal Server Error: <html>no</html>" {
		t.Errorf("Error() = %q", got)
	}
}

// TestResumeOfChangedContentStartsOver: a partial file begun on one version
// of an object is resumed with If-Range; once the object changed, the
// server sends it whole and the file holds the new version alone, never a
// splice of the two. A leftover validator from that part is then gone.
func TestResumeOfChangedContentStartsOver(t *testing.T) {
	v1, v2 := randomBytes(4000), randomBytes(5000)
	var mu sync.Mutex
	content, etag, cut := v1, `"v1"`, true
	var ifRanges []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		body, tag, cutNow := content, etag, cut
		cut = false
		ifRanges = append(ifRanges, r.Header.Get("If-Range"))
		mu.Unlock()
		w.Header().Set("ETag", tag)
		if cutNow {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.Write(body[:1500])
			return
		}
		http.ServeContent(w, r, "obj", time.Time{}, bytes.NewReader(body))
	}))
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "obj.part")
	c := downloadClient()
	c.Retries = 0 // the cut ends the first run, leaving the part
	if _, err := c.Download(context.Background(), Download{Request: Request{URL: srv.URL}, Path: path, Resume: true}); err == nil {
		t.Fatal("a cut download succeeded")
	}
	if got := readValidator(path); got != `"v1"` {
		t.Fatalf("validator kept beside the part = %q, want the first answer's ETag", got)
	}
	mu.Lock()
	content, etag = v2, `"v2"`
	mu.Unlock()
	res, err := downloadClient().Download(context.Background(), Download{Request: Request{URL: srv.URL}, Path: path, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, v2) {
		t.Errorf("the file is %d bytes and not the new version: a splice of two versions", len(got))
	}
	if res.Restarts != 1 {
		t.Errorf("Restarts = %d, want 1", res.Restarts)
	}
	if ifRanges[len(ifRanges)-1] != `"v1"` {
		t.Errorf("If-Range sent = %q, want the part's ETag", ifRanges)
	}
	if _, err := os.Stat(validatorPath(path)); !os.IsNotExist(err) {
		t.Errorf("validator left after completion: %v", err)
	}
}
