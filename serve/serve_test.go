package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"synth/agent"
	"synth/bench"
	"synth/checks"
	"synth/checks/adversary"
	"synth/pyenv"
	"synth/sandbox"
	"synth/schemas"
)

// fixture is a small benchmark with reference solutions: a count, a sorted
// table, a word count and a chart.
const fixture = "../pipeline/testdata/evalbench"

func fixtureSource(t testing.TB) Source {
	t.Helper()
	tasks, err := bench.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return Source{Name: fixture, Tasks: tasks, Inputs: func(task *schemas.Task) []sandbox.Input {
		in := make([]sandbox.Input, len(task.Files))
		for i, f := range task.Files {
			in[i] = sandbox.Input{Name: f.Name, Root: filepath.Join(fixture, bench.DataDir), Path: f.Name}
		}
		return in
	}}
}

// testBackend is the real sandbox; the test skips where none can start.
func testBackend(t testing.TB, slots int) sandbox.Backend {
	t.Helper()
	return testBackendOf(t, sandbox.Config{Slots: slots})
}

func testBackendOf(t testing.TB, cfg sandbox.Config) sandbox.Backend {
	t.Helper()
	if err := exec.Command(pyenv.Sandbox.Python(), "-c", "import pandas").Run(); err != nil {
		t.Skipf("needs the locked sandbox environment with pandas (make deps): %v", err)
	}
	cfg.Residents = []sandbox.Resident{checks.Resident()}
	b, err := sandbox.New(cfg)
	if err != nil {
		t.Skipf("no sandbox backend: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// testServer serves the fixture on a loopback httptest server.
func testServer(t testing.TB, b sandbox.Backend, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(fixtureSource(t), b, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		hs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Close(ctx)
	})
	return s, hs
}

// post sends body as JSON and decodes the answer into out; it returns the
// status.
func post(t testing.TB, url, token string, body, out any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode == 200 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: %v: %s", url, err, raw)
		}
	} else if e, ok := out.(*apiError); ok {
		json.Unmarshal(raw, e)
	}
	return resp.StatusCode
}

type apiError struct {
	Detail string `json:"detail"`
	Code   string `json:"code"`
	Busy   bool   `json:"busy"`
}

// play runs one episode of task over HTTP with policy writing the
// assistant turns from the conversation the server returned, as a trainer
// would, and returns the last result.
func play(t testing.TB, base string, task *schemas.Task, format string, policy agent.Teacher) Result {
	t.Helper()
	var res Result
	if st := post(t, base+"/reset", "", ResetRequest{TaskID: task.ID, Format: format}, &res); st != 200 {
		t.Fatalf("reset: status %d", st)
	}
	id := res.Observation.EpisodeID
	conv := res.Observation.Messages
	for !res.Done {
		reply, err := policy.Reply(context.Background(), agent.Request{Task: task, Messages: conv, MaxTurns: res.Observation.MaxTurns})
		if err != nil {
			t.Fatalf("policy: %v", err)
		}
		reply.Message.Role = schemas.RoleAssistant
		conv = append(conv, reply.Message)
		var e apiError
		res = Result{}
		var out any = &res
		st := post(t, base+"/step", "", map[string]any{"episode_id": id, "action": map[string]any{"message": reply.Message}}, out)
		if st != 200 {
			post(t, base+"/step", "", map[string]any{"episode_id": id, "action": map[string]any{"message": reply.Message}}, &e)
			t.Fatalf("step: status %d: %+v", st, e)
		}
		conv = append(conv, res.Observation.Messages...)
	}
	return res
}

// adversaryPolicy plays adversary a's rollout of a task as one cell and its
// answer, as synth eval --teacher adversary:NAME does.
type adversaryPolicy struct {
	a      adversary.Adversary
	ref    *agent.Reference
	inputs func(*schemas.Task) []sandbox.Input
}

func (p adversaryPolicy) Info() schemas.TeacherInfo {
	return schemas.TeacherInfo{Kind: "adversary:" + p.a.Name}
}

func (p adversaryPolicy) Reply(ctx context.Context, req agent.Request) (agent.Reply, error) {
	r, _, err := p.a.Make(req.Task, p.inputs(req.Task))
	if err != nil {
		return agent.Reply{}, err
	}
	t := *req.Task
	t.Reference = r.Reference()
	req.Task = &t
	return p.ref.Reply(ctx, req)
}

// TestRewards: through synth serve, every task's reference solution gets
// reward 1 in both prompt formats, and the empty episode and every
// adversary get 0, with the verifier's checks and failure reason in the
// last observation.
func TestRewards(t *testing.T) {
	b := testBackend(t, 8)
	src := fixtureSource(t)
	_, hs := testServer(t, b, Config{MaxTurns: 5})
	for _, format := range []string{"pybench", "openai-tools"} {
		f, _ := FormatNamed(format)
		for i := range src.Tasks {
			task := &src.Tasks[i]
			t.Run(format+"/reference/"+task.ID, func(t *testing.T) {
				res := play(t, hs.URL, task, format, agent.NewReference(f))
				if res.Reward == nil || *res.Reward != 1 || !res.Observation.Verdict.Passed || len(res.Observation.Verdict.Checks) == 0 {
					t.Fatalf("reference: reward %v, verdict %+v, error %q", res.Reward, res.Observation.Verdict, res.Observation.Error)
				}
			})
		}
	}
	f := agent.NewPyBench()
	for i := range src.Tasks {
		task := &src.Tasks[i]
		t.Run("empty/"+task.ID, func(t *testing.T) {
			res := play(t, hs.URL, task, "", agent.NewEmpty())
			if res.Reward == nil || *res.Reward != 0 || res.Observation.Verdict.Passed || res.Observation.Verdict.Failure == "" {
				t.Fatalf("empty: reward %v, verdict %+v", res.Reward, res.Observation.Verdict)
			}
		})
		for _, a := range adversary.All() {
			if _, ok, err := a.Make(task, src.Inputs(task)); err != nil || !ok {
				continue
			}
			t.Run(a.Name+"/"+task.ID, func(t *testing.T) {
				res := play(t, hs.URL, task, "", adversaryPolicy{a: a, ref: agent.NewReference(f), inputs: src.Inputs})
				if res.Reward == nil || *res.Reward != 0 || res.Observation.Verdict.Passed {
					t.Fatalf("adversary %s: reward %v, verdict %+v", a.Name, res.Reward, res.Observation.Verdict)
				}
				if res.Observation.StopReason != schemas.StopFinished {
					t.Fatalf("adversary %s: stopped with %s, not a final answer: the verifier was not reached", a.Name, res.Observation.StopReason)
				}
			})
		}
	}
}

// TestStopReasons: an episode ends as a rollout does: at the turn cap, after
// a nudge and a second turn without code, and past the context cap; each
// unfinished episode gets reward 0 with its stop reason as the failure, and
// a step after the end is refused.
func TestStopReasons(t *testing.T) {
	b := testBackend(t, 4)
	cell := map[string]any{"content": "Action:\n```python\nx = 17 * 23\nprint(x)\n```"}
	for _, tc := range []struct {
		name  string
		cfg   Config
		turns []map[string]any
		stop  string
	}{
		{"max_turns", Config{MaxTurns: 2}, []map[string]any{cell, cell}, schemas.StopMaxTurns},
		{"no_code", Config{}, []map[string]any{{"content": ""}, {"content": ""}}, schemas.StopNoCode},
		{"context_length", Config{MaxContext: 200}, []map[string]any{{"content": "Action:\n```python\nprint('word ' * 400)\n```"}}, schemas.StopContextLength},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, hs := testServer(t, b, tc.cfg)
			var res Result
			if st := post(t, hs.URL+"/reset", "", ResetRequest{TaskID: "t-math"}, &res); st != 200 {
				t.Fatalf("reset: %d", st)
			}
			id := res.Observation.EpisodeID
			for i, a := range tc.turns {
				res = Result{}
				if st := post(t, hs.URL+"/step", "", map[string]any{"episode_id": id, "action": a}, &res); st != 200 {
					t.Fatalf("step %d: %d", i+1, st)
				}
				if last := i == len(tc.turns)-1; res.Done != last {
					t.Fatalf("step %d: done %v: %+v", i+1, res.Done, res.Observation)
				}
			}
			v := res.Observation.Verdict
			if res.Observation.StopReason != tc.stop || res.Reward == nil || *res.Reward != 0 || v == nil || v.Passed || v.Failure == "" {
				t.Fatalf("end: stop %q reward %v verdict %+v", res.Observation.StopReason, res.Reward, v)
			}
			var e apiError
			if st := post(t, hs.URL+"/step", "", map[string]any{"episode_id": id, "action": cell}, &e); st != 409 || !strings.Contains(e.Detail, "has ended") {
				t.Fatalf("a step after the end: %d %+v", st, e)
			}
		})
	}
}

// TestSameConversationAsARollout: an episode played through synth serve
// holds exactly the messages agent.Run writes for the same turns in a
// rollout (as synth build shows them), in both formats.
func TestSameConversationAsARollout(t *testing.T) {
	b := testBackend(t, 4)
	src := fixtureSource(t)
	s, hs := testServer(t, b, Config{})
	task := s.byID["t-sort"]
	for _, format := range []string{"pybench", "openai-tools"} {
		t.Run(format, func(t *testing.T) {
			f, _ := FormatNamed(format)
			sb, err := b.Open(context.Background(), sandbox.Spec{Inputs: src.Inputs(task)})
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Close()
			want, err := agent.Run(context.Background(), agent.NewReference(f), f, sb, task, agent.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var res Result
			if st := post(t, hs.URL+"/reset", "", ResetRequest{TaskID: task.ID, Format: format}, &res); st != 200 {
				t.Fatalf("reset: %d", st)
			}
			id := res.Observation.EpisodeID
			for _, m := range want.Messages {
				if m.Role == schemas.RoleAssistant {
					if st := post(t, hs.URL+"/step", "", map[string]any{"episode_id": id, "action": map[string]any{"message": m}}, &res); st != 200 {
						t.Fatalf("step: %d", st)
					}
				}
			}
			st, err := s.State(id)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.Messages, st.Messages); diff != "" || !st.Done || *st.Reward != 1 {
				t.Fatalf("served conversation differs from the rollout's (-rollout +served):\n%s", diff)
			}
		})
	}
}
