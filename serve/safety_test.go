package serve

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"synth/sandbox"
	"synth/schemas"
)

// leftovers counts what this process's sandboxes leave on the host:
// processes descending from it that run as a sandbox's own uid (the backend
// gives each open sandbox one from 1000000 up; other processes on the host
// may use that range too), per-sandbox cgroups under this process's backend directories, and
// workspaces and episode stores in the temporary folder.
type leftovers struct{ procs, cgroups, workspaces int }

func countLeftovers(t testing.TB) leftovers {
	t.Helper()
	l := leftovers{procs: len(sandboxPIDs())}
	own, _ := os.ReadFile("/proc/self/cgroup")
	pid := strconv.Itoa(os.Getpid())
	for _, line := range strings.Split(strings.TrimSpace(string(own)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		for _, ctl := range strings.Split(parts[1], ",") {
			if ctl == "" {
				ctl = "unified"
			}
			dirs, _ := filepath.Glob(filepath.Join("/sys/fs/cgroup", ctl, parts[2], "synth-"+pid+"-*", "*"))
			for _, d := range dirs {
				if st, err := os.Stat(d); err == nil && st.IsDir() {
					l.cgroups++
				}
			}
		}
	}
	// The backend writes its pid in 7 digits (sandbox/quota.go).
	for _, pat := range []string{fmt.Sprintf("synth-ws-%07d-*", os.Getpid()), "synth-serve-*"} {
		ws, _ := filepath.Glob(filepath.Join(os.TempDir(), pat))
		l.workspaces += len(ws)
	}
	return l
}

// sandboxPIDs are the processes descending from this one that run as a
// sandbox's own uid (the backend gives each open sandbox one from 1000000
// up; other processes on the host may use that range too).
func sandboxPIDs() []int {
	type proc struct{ ppid, uid int }
	procs := map[int]proc{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil || strings.Contains(string(st), "State:\tZ") {
			continue
		}
		var p proc
		for _, line := range strings.Split(string(st), "\n") {
			if f := strings.Fields(line); len(f) > 1 {
				switch f[0] {
				case "PPid:":
					p.ppid, _ = strconv.Atoi(f[1])
				case "Uid:":
					p.uid, _ = strconv.Atoi(f[1])
				}
			}
		}
		procs[pid] = p
	}
	self := os.Getpid()
	var out []int
	for pid, p := range procs {
		if p.uid < 1000000 || p.uid >= 1000000+1<<20 {
			continue
		}
		for q, n := pid, 0; q > 1 && n < 64; q, n = procs[q].ppid, n+1 {
			if q == self {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// TestAbandonedEpisodes: 200 episodes are reset and never finished, in
// waves that fill every slot (one cell each, which leaves a process
// running); past the slots a reset is answered busy at once; the idle
// timeout reaps each wave, and afterwards no sandbox process, cgroup or
// workspace is left.
func TestAbandonedEpisodes(t *testing.T) {
	const slots, waves = 25, 8
	// No spare interpreters: a spare holds a cgroup before it is a
	// sandbox, and would be counted as one.
	b := testBackendOf(t, sandbox.Config{Slots: slots + 2, Spares: -1})
	idle := 4 * time.Second // longer than a wave of resets takes on a busy machine
	s, hs := testServer(t, b, Config{MaxEpisodes: slots, IdleTimeout: idle})
	before := countLeftovers(t)
	if before != (leftovers{}) {
		t.Fatalf("before the storm: %+v", before)
	}
	for w := range waves {
		for i := range slots {
			var res Result
			if st := post(t, hs.URL+"/reset", "", ResetRequest{}, &res); st != 200 {
				t.Fatalf("wave %d reset %d: status %d", w, i, st)
			}
			if i%5 == 0 {
				// A process that would run on if nothing killed it.
				code := "Action:\n```python\nimport subprocess\nsubprocess.Popen(['sleep', '1000'], start_new_session=True)\nprint('started')\n```"
				var sr Result
				if st := post(t, hs.URL+"/step", "", map[string]any{"episode_id": res.Observation.EpisodeID, "action": map[string]any{"content": code}}, &sr); st != 200 || sr.Observation.Cell != "ok" {
					t.Fatalf("wave %d step: status %d, %+v", w, st, sr.Observation)
				}
			}
		}
		start := time.Now()
		var e apiError
		if st := post(t, hs.URL+"/reset", "", ResetRequest{}, &e); st != http.StatusServiceUnavailable || !e.Busy || e.Code != codeCapacity {
			t.Fatalf("wave %d: a reset past %d slots: status %d %+v, want 503 busy", w, slots, st, e)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("the busy answer took %s", d)
		}
		if w == 0 {
			open := countLeftovers(t)
			if open.procs < slots || open.workspaces < slots {
				t.Fatalf("with %d episodes open the counters see %+v: they cannot tell a leak", slots, open)
			}
			if open.cgroups == 0 {
				t.Logf("no per-sandbox cgroups here (not root, or no delegation): that count is not tested")
			}
		}
		deadline := time.Now().Add(3 * idle)
		for s.Open() > 0 && time.Now().Before(deadline) {
			time.Sleep(idle / 20)
		}
		if n := s.Open(); n > 0 {
			t.Fatalf("wave %d: %d episodes still open %s after the idle timeout", w, n, 3*idle)
		}
	}
	var left leftovers
	deadline := time.Now().Add(10 * time.Second)
	for {
		if left = countLeftovers(t); left == (leftovers{}) || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if left != (leftovers{}) {
		t.Fatalf("after %d abandoned episodes: %+v left behind", slots*waves, left)
	}
	m := s.Metrics()
	if m.Counts.Reaped != slots*waves || m.Counts.Busy != waves || m.Counts.Finished != 0 {
		t.Fatalf("metrics: %+v", m.Counts)
	}
	var e apiError
	if st := post(t, hs.URL+"/step", "", map[string]any{"episode_id": "nope", "action": map[string]any{"content": "x"}}, &e); st != 404 || !strings.Contains(e.Detail, "reaped") {
		t.Fatalf("a step of an unknown episode: %d %+v", st, e)
	}
}

// TestAuth: with a token, every endpoint but /health refuses a request
// without it, and takes one with it.
func TestAuth(t *testing.T) {
	b := testBackend(t, 3)
	_, hs := testServer(t, b, Config{Token: "s3cret", MaxEpisodes: 1})
	for _, path := range []string{"/metrics", "/tasks", "/state?episode_id=x", "/ws"} {
		resp, err := http.Get(hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 {
			t.Fatalf("GET %s without the token: %d", path, resp.StatusCode)
		}
	}
	if st := post(t, hs.URL+"/reset", "wrong", ResetRequest{}, nil); st != 401 {
		t.Fatalf("reset with a wrong token: %d", st)
	}
	var res Result
	if st := post(t, hs.URL+"/reset", "s3cret", ResetRequest{TaskID: "1"}, &res); st != 200 || len(res.Observation.Messages) != 3 {
		t.Fatalf("reset with the token: %d %+v", st, res)
	}
	resp, err := http.Get(hs.URL + "/health")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("health: %v %v", resp, err)
	}
	resp.Body.Close()
}

// TestShutdown: Close refuses new resets, lets a step in flight finish
// with its verdict, and tears down the episodes left open.
func TestShutdown(t *testing.T) {
	b := testBackend(t, 4)
	s, err := New(fixtureSource(t), b, Config{MaxEpisodes: 2, MaxTurns: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	left, _, err := s.Reset(ctx, ResetRequest{TaskID: "t-count"})
	if err != nil {
		t.Fatal(err)
	}
	busy, _, err := s.Reset(ctx, ResetRequest{TaskID: "t-count"})
	if err != nil {
		t.Fatal(err)
	}
	step := make(chan Result, 1)
	go func() {
		// The turn cap is 1: this step ends the episode and is verified.
		r, err := s.Step(ctx, busy.id, schemas.Message{Content: "Action:\n```python\nimport time\ntime.sleep(0.5)\nprint(5)\n```"})
		if err != nil {
			t.Error(err)
		}
		step <- r
	}()
	time.Sleep(100 * time.Millisecond)
	s.Drain()
	if _, _, err := s.Reset(ctx, ResetRequest{}); err == nil || !strings.Contains(err.Error(), "shutting down") {
		t.Fatalf("a reset while draining: %v", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	s.Close(cctx)
	r := <-step
	if !r.Done || r.Reward == nil || r.Observation.Verdict == nil || r.Observation.StopReason != schemas.StopMaxTurns {
		t.Fatalf("the step in flight: %+v", r)
	}
	if s.Open() != 0 || left.sb != nil {
		t.Fatalf("after Close: %d episodes open", s.Open())
	}
	if _, err := s.Step(ctx, left.id, schemas.Message{Content: "Finished: 5"}); err == nil {
		t.Fatal("a step after Close was taken")
	}
}

// TestHostileNeighbour: an episode whose cells kill every process they can
// see and crash their interpreter does not disturb another episode open at
// the same time: its state survives and it finishes with reward 1.
func TestHostileNeighbour(t *testing.T) {
	b := testBackend(t, 4)
	s, _ := testServer(t, b, Config{})
	ctx := context.Background()
	good, _, err := s.Reset(ctx, ResetRequest{TaskID: "t-math"})
	if err != nil {
		t.Fatal(err)
	}
	bad, _, err := s.Reset(ctx, ResetRequest{TaskID: "t-count"})
	if err != nil {
		t.Fatal(err)
	}
	step := func(id, code string) Result {
		t.Helper()
		r, err := s.Step(ctx, id, schemas.Message{Content: "Action:\n```python\n" + code + "\n```"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := step(good.id, "x = 17 * 23"); r.Observation.Cell != "ok" {
		t.Fatalf("good: %+v", r.Observation)
	}
	for _, code := range []string{
		"import os, signal\nos.kill(-1, signal.SIGKILL)",
		"import os\nos._exit(3)",
		"import subprocess\nsubprocess.run('pkill -9 -f python; kill -9 -1', shell=True)",
	} {
		if r := step(bad.id, code); r.Done {
			t.Fatalf("bad: the episode ended: %+v", r.Observation)
		}
	}
	if r := step(good.id, "print(x)"); r.Observation.Cell != "ok" || !strings.Contains(r.Observation.Messages[0].Content, "391") {
		t.Fatalf("good after its neighbour's attacks: %+v", r.Observation)
	}
	r, err := s.Step(ctx, good.id, schemas.Message{Content: "Finished: 391"})
	if err != nil || r.Reward == nil || *r.Reward != 1 {
		t.Fatalf("good's verdict: %+v %v", r.Observation, err)
	}
}
