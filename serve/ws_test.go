package serve

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/websocket"

	"synth/agent"
	"synth/schemas"
)

// wsCall sends one message of OpenEnv's WebSocket protocol and reads the
// answer.
func wsCall(t *testing.T, c *websocket.Conn, typ string, data any) wsMessage {
	t.Helper()
	msg := map[string]any{"type": typ}
	if data != nil {
		msg["data"] = data
	}
	if err := websocket.JSON.Send(c, msg); err != nil {
		t.Fatal(err)
	}
	var out wsMessage
	if err := websocket.JSON.Receive(c, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWebSocket plays the reference of a task over the /ws session OpenEnv's
// client uses, then shows that a reset on the same connection and a dropped
// connection each abandon the open episode, and that a malformed message is
// an error the session survives.
func TestWebSocket(t *testing.T) {
	b := testBackend(t, 4)
	s, hs := testServer(t, b, Config{})
	url := "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws"
	c, err := websocket.Dial(url, "", hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	if m := wsCall(t, c, "step", map[string]any{"content": "x"}); m.Type != "error" || !strings.Contains(string(m.Data), "reset first") {
		t.Fatalf("step before reset: %s %s", m.Type, m.Data)
	}
	m := wsCall(t, c, "reset", map[string]any{"task_id": "3"})
	var res Result
	if m.Type != "observation" || json.Unmarshal(m.Data, &res) != nil || res.Observation.TaskID != "t-words" {
		t.Fatalf("reset: %s %s", m.Type, m.Data)
	}
	task := s.byID["t-words"]
	conv := res.Observation.Messages
	ref := agent.NewReference(agent.NewPyBench())
	for !res.Done {
		reply, err := ref.Reply(context.Background(), agent.Request{Task: task, Messages: conv})
		if err != nil {
			t.Fatal(err)
		}
		reply.Message.Role = schemas.RoleAssistant
		conv = append(conv, reply.Message)
		m := wsCall(t, c, "step", map[string]any{"message": reply.Message})
		res = Result{}
		if m.Type != "observation" || json.Unmarshal(m.Data, &res) != nil {
			t.Fatalf("step: %s %s", m.Type, m.Data)
		}
		conv = append(conv, res.Observation.Messages...)
	}
	if res.Reward == nil || *res.Reward != 1 {
		t.Fatalf("reference over /ws: %s", mustJSON(res))
	}
	if m := wsCall(t, c, "state", nil); m.Type != "state" || !strings.Contains(string(m.Data), `"done":true`) {
		t.Fatalf("state: %s %s", m.Type, m.Data)
	}
	if m := wsCall(t, c, "bogus", nil); m.Type != "error" || !strings.Contains(string(m.Data), codeType) {
		t.Fatalf("unknown type: %s %s", m.Type, m.Data)
	}
	wsCall(t, c, "reset", nil)
	wsCall(t, c, "reset", nil) // abandons the one before
	if n := s.Metrics().Counts.Abandoned; n != 1 {
		t.Fatalf("a second reset abandoned %d episodes, want 1", n)
	}
	c.Close() // abandons the open one
	deadline := time.Now().Add(5 * time.Second)
	for s.Open() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if s.Open() != 0 || s.Metrics().Counts.Abandoned != 2 {
		t.Fatalf("after the connection closed: %d open, %+v", s.Open(), s.Metrics().Counts)
	}
}
