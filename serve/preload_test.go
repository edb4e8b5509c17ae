package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/agent"
	"synth/checks"
	"synth/checks/adversary"
	"synth/sandbox"
)

// preloader is Config.Preload over real templates, counting them and
// keeping them for the test to look at.
type preloader struct {
	mu   sync.Mutex
	made []sandbox.Backend
	fail error // returned instead of a template when set
}

func (p *preloader) preload(inputs []sandbox.Input, reads []sandbox.Read) (sandbox.Backend, error) {
	if p.fail != nil {
		return nil, p.fail
	}
	b, err := sandbox.NewTemplate(sandbox.Config{Slots: 4, Residents: []sandbox.Resident{checks.Resident()}}, inputs, reads, sandbox.TemplateLimits{})
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.made = append(p.made, b)
	p.mu.Unlock()
	return b, nil
}

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("preloaded inputs need root")
	}
}

// TestPreloadRewards: with preloading on and off, every task's reference
// solution (which reads its files itself) gets reward 1 and the empty
// episode and every adversary 0; with it on, a table task's first
// observation names the frame already read, and a cell finds it.
func TestPreloadRewards(t *testing.T) {
	needRoot(t)
	b := testBackend(t, 8)
	src := fixtureSource(t)
	f := agent.NewPyBench()
	for _, on := range []bool{true, false} {
		t.Run("preload="+strconv.FormatBool(on), func(t *testing.T) {
			p := &preloader{}
			cfg := Config{MaxTurns: 5}
			if on {
				cfg.Preload = p.preload
			}
			_, hs := testServer(t, b, cfg)
			for i := range src.Tasks {
				task := &src.Tasks[i]
				if res := play(t, hs.URL, task, "", agent.NewReference(f)); res.Reward == nil || *res.Reward != 1 {
					t.Fatalf("%s: reference: reward %v, verdict %+v, error %q", task.ID, res.Reward, res.Observation.Verdict, res.Observation.Error)
				}
				if res := play(t, hs.URL, task, "", agent.NewEmpty()); res.Reward == nil || *res.Reward != 0 {
					t.Fatalf("%s: empty: reward %v", task.ID, res.Reward)
				}
				for _, a := range adversary.All() {
					if _, ok, err := a.Make(task, src.Inputs(task)); err != nil || !ok {
						continue
					}
					res := play(t, hs.URL, task, "", adversaryPolicy{a: a, ref: agent.NewReference(f), inputs: src.Inputs})
					if res.Reward == nil || *res.Reward != 0 {
						t.Fatalf("%s: adversary %s: reward %v", task.ID, a.Name, res.Reward)
					}
				}
			}
			var res Result
			if st := post(t, hs.URL+"/reset", "", ResetRequest{TaskID: "t-count"}, &res); st != 200 {
				t.Fatalf("reset: %d", st)
			}
			first := res.Observation.Messages[len(res.Observation.Messages)-1].Content
			const note = `inputs["data/nums.csv"] is pd.read_csv("data/nums.csv", `
			if strings.Contains(first, note) != on {
				t.Fatalf("preload %v: first observation %q", on, first)
			}
			post(t, hs.URL+"/step", "", map[string]any{"episode_id": res.Observation.EpisodeID,
				"action": map[string]any{"content": "Action:\n```python\nprint('frame', 'inputs' in globals() and len(inputs['data/nums.csv']))\n```"}}, &res)
			want := "frame False"
			if on {
				want = "frame 5"
			}
			if got := res.Observation.Messages[len(res.Observation.Messages)-1].Content; !strings.Contains(got, want) {
				t.Fatalf("preload %v: the cell printed %q, want %q", on, got, want)
			}
			if on && len(p.made) != 2 { // t-count and t-sort read nums.csv; t-words has text, t-math nothing
				t.Fatalf("%d templates made, want one per table task (2)", len(p.made))
			}
		})
	}
}

// TestPreloadFallsBack: a task whose template fails is logged once, naming
// the task and the error, and its episodes read their files themselves
// (no note, reward 1); tasks under the size threshold get no template.
func TestPreloadFallsBack(t *testing.T) {
	needRoot(t)
	b := testBackend(t, 4)
	src := fixtureSource(t)
	task := &src.Tasks[0]
	for _, tc := range []struct {
		name string
		p    *preloader
		min  int64
		log  string
	}{
		{"failed", &preloader{fail: errors.New("the read failed: data/nums.csv: ParserError")}, 0, "data/nums.csv: ParserError"},
		{"small", &preloader{}, 1 << 20, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log syncBuffer
			s, err := New(src, b, Config{MaxTurns: 5, Preload: tc.p.preload, PreloadMin: tc.min}, &log)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close(context.Background())
			for range 2 {
				_, r, err := s.Reset(context.Background(), ResetRequest{TaskID: task.ID})
				if err != nil {
					t.Fatal(err)
				}
				if q := r.Observation.Messages[len(r.Observation.Messages)-1].Content; strings.Contains(q, "inputs[") {
					t.Fatalf("a task without a template: the query says %q", q)
				}
			}
			if n := strings.Count(log.String(), "not preloaded"); (tc.log != "") != (n == 1) || !strings.Contains(log.String(), tc.log) {
				t.Fatalf("log: %q", log.String())
			}
			if len(tc.p.made) != 0 {
				t.Fatalf("%d templates made", len(tc.p.made))
			}
		})
	}
}

// TestPreloadTasksCap: past Config.PreloadTasks templates, a task is
// served without one.
func TestPreloadTasksCap(t *testing.T) {
	needRoot(t)
	b := testBackend(t, 4)
	p := &preloader{}
	s, err := New(fixtureSource(t), b, Config{MaxTurns: 5, Preload: p.preload, PreloadTasks: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	var notes []bool
	for _, id := range []string{"t-count", "t-sort", "t-count"} {
		_, r, err := s.Reset(context.Background(), ResetRequest{TaskID: id})
		if err != nil {
			t.Fatal(err)
		}
		notes = append(notes, strings.Contains(r.Observation.Messages[len(r.Observation.Messages)-1].Content, "inputs["))
	}
	if len(p.made) != 1 || fmt.Sprint(notes) != "[true false true]" {
		t.Fatalf("%d templates; preloaded resets %v, want [true false true]", len(p.made), notes)
	}
}

// TestPreloadTornDown: Close tears down every template with the episodes:
// no process it started and no cgroup of its own is left.
func TestPreloadTornDown(t *testing.T) {
	needRoot(t)
	b := testBackend(t, 4)
	src := fixtureSource(t)
	procs, groups := childProcs(t), ownCgroups(t)
	p := &preloader{}
	s, err := New(src, b, Config{MaxTurns: 5, Preload: p.preload}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"t-count", "t-sort", "t-count"} {
		if _, _, err := s.Reset(context.Background(), ResetRequest{TaskID: id}); err != nil {
			t.Fatal(err)
		}
	}
	if len(p.made) != 2 || childProcs(t) <= procs || ownCgroups(t) <= groups {
		t.Fatalf("%d templates, %d processes (from %d), %d cgroups (from %d)", len(p.made), childProcs(t), procs, ownCgroups(t), groups)
	}
	s.Close(context.Background())
	deadline := time.Now().Add(10 * time.Second)
	for (childProcs(t) != procs || ownCgroups(t) != groups) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n, g := childProcs(t), ownCgroups(t); n != procs || g != groups {
		t.Fatalf("after Close: %d child processes (%d before), %d cgroups (%d before)", n, procs, g, groups)
	}
}

// childProcs counts this process's children (each backend's zygote, under
// bubblewrap or not).
func childProcs(t *testing.T) int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	me := " " + strconv.Itoa(os.Getpid()) + " "
	for _, e := range ents {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: the comm may hold spaces and parentheses.
		rest := stat[bytes.LastIndexByte(stat, ')')+1:]
		if f := strings.Fields(string(rest)); len(f) > 1 && " "+f[1]+" " == me {
			n++
		}
	}
	return n
}

// ownCgroups counts the cgroup folders of this process's backends
// (synth-PID-N) beside its own cgroups: v2, or v1's memory and pids.
func ownCgroups(t *testing.T) int {
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(own)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		var dir string
		switch f[1] {
		case "":
			dir = filepath.Join("/sys/fs/cgroup", f[2])
		case "memory", "pids":
			dir = filepath.Join("/sys/fs/cgroup", f[1], f[2])
		default:
			continue
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), fmt.Sprintf("synth-%d-", os.Getpid())) {
				n++
			}
		}
	}
	return n
}

// syncBuffer is a log the server writes from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
