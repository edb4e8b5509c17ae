package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/websocket"

	"synth/sandbox"
)

// Attacks of a hostile client on a real server. After each, the test
// counts what is left on the host by PID and path (countLeftovers).

// lockedBuffer is a server log tests read while the server writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// liveServer runs s.Serve, the listener synth serve runs, on a loopback
// port, and returns its base URL; the server is stopped at cleanup.
func liveServer(t *testing.T, b sandbox.Backend, cfg Config, log io.Writer) (*Server, string) {
	t.Helper()
	s, err := New(fixtureSource(t), b, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, 5*time.Second) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return s, "http://" + ln.Addr().String()
}

// noLeftovers waits up to 10 s for countLeftovers to reach zero, and fails
// the test with what is left otherwise.
func noLeftovers(t *testing.T, after string) {
	t.Helper()
	var left leftovers
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if left = countLeftovers(t); left == (leftovers{}) || time.Now().After(deadline) {
			break
		}
	}
	if left != (leftovers{}) {
		t.Fatalf("after %s: %+v left behind", after, left)
	}
}

// TestTraversalID: an episode_id that would climb out of the workspace,
// or carry a line break or an escape, is refused with 400 before anything
// is opened, and no folder appears beside the workspace; an id of the
// pattern plays a whole episode whose artifact store is made inside the
// workspace, under the server's own name, and removed after the verdict.
func TestTraversalID(t *testing.T) {
	b := quietBackend(t, 4)
	parent := t.TempDir()
	work := filepath.Join(parent, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	_, base := liveServer(t, b, Config{TempDir: work, MaxEpisodes: 2}, nil)
	for _, id := range []string{
		"x/../../escaped", "../escaped", "..", ".", "/tmp/escaped", "x/escaped",
		"escaped\nserve: episode 1 finished with reward 1.0", "e\x1b[2Kscaped", "-escaped",
		strings.Repeat("e", 129),
	} {
		var e apiError
		if st := post(t, base+"/reset", "", ResetRequest{EpisodeID: id, TaskID: "t-count"}, &e); st != 400 || e.Code != codeValidation || !strings.Contains(e.Detail, "episode_id") {
			t.Errorf("reset with episode_id %q: status %d %+v, want 400 naming episode_id", id, st, e)
		}
	}
	var res Result
	const own = "run-7.ep:3_a"
	if st := post(t, base+"/reset", "", ResetRequest{EpisodeID: own, TaskID: "t-count"}, &res); st != 200 || res.Observation.EpisodeID != own {
		t.Fatalf("reset with episode_id %q: status %d %+v", own, st, res.Observation)
	}
	code := "Action:\n```python\nimport os\nos.makedirs('output', exist_ok=True)\nopen('output/a.txt', 'w').write('x')\nprint('ok')\n```"
	post(t, base+"/step", "", map[string]any{"episode_id": own, "action": map[string]any{"content": code}}, nil)
	var fin Result
	if st := post(t, base+"/step", "", map[string]any{"episode_id": own, "action": map[string]any{"content": "Finished: 5"}}, &fin); st != 200 || !fin.Done || fin.Reward == nil {
		t.Fatalf("the last step: status %d %+v", st, fin)
	}
	if a := fin.Observation.Error; a != "" {
		t.Fatalf("the episode's error: %s", a)
	}
	ents, _ := os.ReadDir(parent)
	if len(ents) != 1 || ents[0].Name() != "work" {
		t.Fatalf("beside the workspace: %v, want only work", ents)
	}
	if ents, _ := os.ReadDir(work); len(ents) != 0 {
		t.Fatalf("the workspace after the verdict: %v, want empty", ents)
	}
	for _, dir := range []string{os.TempDir(), filepath.Dir(parent), "/"} {
		if m, _ := filepath.Glob(filepath.Join(dir, "*escaped*")); len(m) > 0 {
			t.Fatalf("a client's path was made: %v", m)
		}
	}
	noLeftovers(t, "traversal ids")
}

// TestLogForgery: a forged log line in an episode_id is refused, and what
// the log does say of an episode quotes its id; whatever control character
// reaches a log line is escaped, so one call writes one line.
func TestLogForgery(t *testing.T) {
	b := quietBackend(t, 3)
	var log lockedBuffer
	s, base := liveServer(t, b, Config{IdleTimeout: 300 * time.Millisecond, MaxEpisodes: 1}, &log)
	forged := "x\nserve: episode 1 finished with reward 1.0\x1b[1A\x1b[2K"
	if st := post(t, base+"/reset", "", ResetRequest{EpisodeID: forged}, nil); st != 400 {
		t.Fatalf("reset with a forged id: status %d, want 400", st)
	}
	if st := post(t, base+"/reset", "", ResetRequest{EpisodeID: "quiet-1"}, nil); st != 200 {
		t.Fatalf("reset: status %d", st)
	}
	for deadline := time.Now().Add(10 * time.Second); s.Open() > 0 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if got := log.String(); !strings.Contains(got, `episode "quiet-1"`) || strings.Contains(got, "reward 1.0") {
		t.Fatalf("the log: %q, want the reaped episode's id quoted and nothing forged", got)
	}
	var one lockedBuffer
	s.log = &one
	s.logf("serve: episode %s", forged+"\u2028\r")
	if got := one.String(); strings.Count(got, "\n") != 1 || strings.ContainsAny(got, "\x1b\r\u2028") {
		t.Fatalf("a log line with a client's raw string: %q, want one line with its control characters escaped", got)
	}
	noLeftovers(t, "a forged log line")
}

// TestSlowBodies: 150 connections that send a request's header and then
// its body a byte at a time are each closed once ReadTimeout has passed,
// while a WebSocket session stays usable past ReadTimeout.
func TestSlowBodies(t *testing.T) {
	const conns, timeout = 150, 2 * time.Second
	b := quietBackend(t, 3)
	_, base := liveServer(t, b, Config{ReadTimeout: timeout, MaxEpisodes: 1}, nil)
	addr := strings.TrimPrefix(base, "http://")
	ws, err := websocket.Dial("ws://"+addr+"/ws", "", base)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if m := wsCall(t, ws, "reset", map[string]any{"task_id": "t-math"}); m.Type != "observation" {
		t.Fatalf("ws reset: %s %s", m.Type, m.Data)
	}
	var cs []net.Conn
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		defer c.Close()
		if _, err := io.WriteString(c, "POST /reset HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	start := time.Now()
	stop := make(chan struct{})
	defer close(stop)
	go func() { // a byte every 100 ms on every connection
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			for _, c := range cs {
				c.SetWriteDeadline(time.Now().Add(10 * time.Millisecond))
				c.Write([]byte(" "))
			}
		}
	}()
	open := 0
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(start.Add(timeout + 8*time.Second))
			_, err := io.Copy(io.Discard, c)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				mu.Lock()
				open++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if open > 0 {
		t.Fatalf("%d of %d slow-body connections still open %s after their header", open, conns, timeout+8*time.Second)
	}
	if d := time.Since(start); d < timeout-100*time.Millisecond {
		t.Fatalf("the connections were closed after %s, before the %s deadline", d, timeout)
	}
	if m := wsCall(t, ws, "step", map[string]any{"content": "Action:\n```python\nprint(17 * 23)\n```"}); m.Type != "observation" || !strings.Contains(string(m.Data), "391") {
		t.Fatalf("a WebSocket step %s after the session opened: %s %s", time.Since(start), m.Type, m.Data)
	}
	ws.Close()
	noLeftovers(t, "slow bodies")
}

// TestAuthEveryRoute: with a token, every route of the server but GET
// /health answers 401 without it or with a wrong one, and does not with it.
func TestAuthEveryRoute(t *testing.T) {
	b := quietBackend(t, 3)
	s, base := liveServer(t, b, Config{Token: "s3cret", MaxEpisodes: 1}, nil)
	defer func() {
		s.Close(context.Background())
		noLeftovers(t, "requests with and without the token")
	}()
	routes := api{s}.routeTable()
	for _, want := range []string{"POST /reset", "POST /step", "GET /state", "GET /ws", "GET /metrics"} {
		found := false
		for _, r := range routes {
			found = found || r.pattern == want
		}
		if !found {
			t.Fatalf("the route table has no %s", want)
		}
	}
	for _, r := range routes {
		method, path, _ := strings.Cut(r.pattern, " ")
		t.Run(r.pattern, func(t *testing.T) {
			for _, token := range []string{"", "wrong", "s3cret"} {
				req, _ := http.NewRequest(method, base+path, strings.NewReader(`{"episode_id": "x", "action": {"content": "x"}}`))
				if token != "" {
					req.Header.Set("Authorization", "Bearer "+token)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				want401 := token != "s3cret" && r.pattern != publicRoute
				if (resp.StatusCode == 401) != want401 {
					t.Errorf("%s with token %q: status %d", r.pattern, token, resp.StatusCode)
				}
			}
		})
	}
}

// TestSessionFlood: a client that opens episodes until refused, and
// WebSocket sessions until refused, gets a 503 that says busy and which
// limit, at once; closing frees the slots, and nothing is left behind.
func TestSessionFlood(t *testing.T) {
	const episodes, sessions = 3, 5
	b := testBackendOf(t, sandbox.Config{Slots: episodes + 2, Spares: -1})
	s, base := liveServer(t, b, Config{MaxEpisodes: episodes, MaxSessions: sessions}, nil)
	var ids []string
	for i := 0; ; i++ {
		var res Result
		st := post(t, base+"/reset", "", ResetRequest{}, &res)
		if st == 200 {
			ids = append(ids, res.Observation.EpisodeID)
			continue
		}
		var e apiError
		if st := post(t, base+"/reset", "", ResetRequest{}, &e); st != 503 || !e.Busy || e.Code != codeCapacity || !strings.Contains(e.Detail, "--max-episodes") {
			t.Fatalf("reset %d: status %d %+v, want 503 busy naming --max-episodes", i, st, e)
		}
		break
	}
	if len(ids) != episodes {
		t.Fatalf("%d resets taken, want %d", len(ids), episodes)
	}
	wsURL := "ws" + strings.TrimPrefix(base, "http") + "/ws"
	var open []*websocket.Conn
	for {
		c, err := websocket.Dial(wsURL, "", base)
		if err != nil {
			break
		}
		open = append(open, c)
		if len(open) > sessions {
			t.Fatalf("%d WebSocket sessions taken past --max-sessions %d", len(open), sessions)
		}
	}
	if len(open) != sessions {
		t.Fatalf("%d WebSocket sessions taken, want %d", len(open), sessions)
	}
	if st, e := upgrade(t, base); st != 503 || !e.Busy || !strings.Contains(e.Detail, "--max-sessions") {
		t.Fatalf("a WebSocket session past the limit: status %d %+v, want 503 naming --max-sessions", st, e)
	}
	if m := wsCall(t, open[0], "reset", nil); m.Type != "error" || !strings.Contains(string(m.Data), codeCapacity) {
		t.Fatalf("a WebSocket reset with every episode slot taken: %s %s", m.Type, m.Data)
	}
	for _, c := range open {
		c.Close()
	}
	for _, id := range ids {
		s.Abandon(id)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := websocket.Dial(wsURL, "", base)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no WebSocket session once the others closed: %v", err)
		}
	}
	if st := post(t, base+"/reset", "", ResetRequest{}, nil); st != 200 {
		t.Fatalf("a reset once the episodes closed: status %d", st)
	}
	s.Close(context.Background())
	noLeftovers(t, "a session flood")
}

// upgrade asks for a WebSocket session by hand and returns the status and
// the error answered.
func upgrade(t *testing.T, base string) (int, apiError) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/ws", nil)
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	req.Header.Set("Origin", base)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e apiError
	json.NewDecoder(resp.Body).Decode(&e)
	return resp.StatusCode, e
}

// TestOversizeMessages: a request body or a WebSocket frame that claims
// more than MaxMessageBytes is refused with 413 before the server reads
// (and allocates) it: a 64 MiB body costs the process far less than 64 MiB,
// and a frame header that claims 16 MiB is answered at once though its
// payload never comes.
func TestOversizeMessages(t *testing.T) {
	const limit = 64 << 10
	b := quietBackend(t, 3)
	_, base := liveServer(t, b, Config{MaxMessageBytes: limit, MaxEpisodes: 1}, nil)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	body := io.MultiReader(strings.NewReader(`{"task_id": "`), io.LimitReader(zeros{}, 64<<20), strings.NewReader(`"}`))
	resp, err := http.Post(base+"/reset", "application/json", body)
	if err != nil && !errors.Is(err, io.ErrClosedPipe) && !strings.Contains(err.Error(), "connection reset") && !strings.Contains(err.Error(), "broken pipe") {
		t.Fatal(err)
	}
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != 413 {
			t.Fatalf("a 64 MiB reset: status %d, want 413", resp.StatusCode)
		}
	}
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 16<<20 {
		t.Fatalf("a 64 MiB body over a %d-byte limit cost %d MiB of allocations", limit, d>>20)
	}

	addr := strings.TrimPrefix(base, "http://")
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	cfg, _ := websocket.NewConfig("ws://"+addr+"/ws", base)
	c, err := websocket.NewClient(cfg, raw)
	if err != nil {
		t.Fatal(err)
	}
	// A masked binary frame whose header claims 16 MiB, and 1 KiB of it.
	hdr := []byte{0x82, 0x80 | 127}
	hdr = binary.BigEndian.AppendUint64(hdr, 16<<20)
	hdr = append(hdr, 1, 2, 3, 4)
	w := bufio.NewWriter(raw)
	w.Write(hdr)
	w.Write(make([]byte, 1024))
	w.Flush()
	raw.SetReadDeadline(time.Now().Add(5 * time.Second))
	var m wsMessage
	if err := websocket.JSON.Receive(c, &m); err != nil || m.Type != "error" || !strings.Contains(string(m.Data), "--max-message-bytes") {
		t.Fatalf("a frame claiming 16 MiB over a %d-byte limit: %v %s %s, want an error at once", limit, err, m.Type, m.Data)
	}
	noLeftovers(t, "oversize messages")
}

// quietBackend is the real sandbox without spare interpreters: a spare
// holds a cgroup before it is a sandbox, and would be counted as left over.
func quietBackend(t *testing.T, slots int) sandbox.Backend {
	return testBackendOf(t, sandbox.Config{Slots: slots, Spares: -1})
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}
