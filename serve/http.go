package serve

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"golang.org/x/net/websocket"

	"synth/agent"
	"synth/schemas"
)

// Handler serves the environment:
//
//	GET  /health    {"status": "healthy"} (never needs the token)
//	GET  /metadata  name, description, version, the task count
//	GET  /schema    the JSON schemas of action, observation and state
//	GET  /tasks     the tasks: id, index, category
//	POST /reset     {seed?, episode_id?, task_id?, format?} -> {observation, reward, done}
//	POST /step      {action: {message | content}, episode_id} -> {observation, reward, done}
//	GET  /state     ?episode_id=ID -> the episode's state
//	GET  /metrics   episodes, steps, rewards, latency percentiles
//	GET  /ws        OpenEnv's WebSocket session: one episode at a time per connection
//
// OpenEnv's own HTTP reset and step keep no state between requests; here
// reset's observation carries an episode_id that step and state name, so
// an episode can be played over plain HTTP too.
func (s *Server) Handler() http.Handler { return api{s}.routes() }

// api is a Server's HTTP and WebSocket face: it checks the token, decodes
// requests, calls the Server and writes its replies and errors as JSON.
type api struct{ *Server }

// route is one endpoint: its pattern (method and path) and its handler.
// Every route but GET /health goes through auth.
type route struct {
	pattern string
	handler http.HandlerFunc
}

// publicRoute is the one pattern served without the token.
const publicRoute = "GET /health"

func (s api) routeTable() []route {
	ws := websocket.Server{Handler: s.session, Handshake: func(*websocket.Config, *http.Request) error { return nil }}
	return []route{
		{publicRoute, func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, map[string]string{"status": "healthy"})
		}},
		{"GET /metadata", s.handleMetadata},
		{"GET /schema", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, schemaDoc) }},
		{"GET /tasks", s.handleTasks},
		{"POST /reset", s.handleReset},
		{"POST /step", s.handleStep},
		{"GET /state", s.handleState},
		{"GET /metrics", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, s.Metrics()) }},
		{"GET /ws", s.sessions(ws)},
	}
}

func (s api) routes() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range s.routeTable() {
		if rt.pattern == publicRoute {
			mux.Handle(rt.pattern, rt.handler)
			continue
		}
		mux.Handle(rt.pattern, s.auth(rt.handler))
	}
	return mux
}

// sessions upgrades a request to a WebSocket session, or refuses it with
// 503 before the upgrade when MaxSessions are open.
func (s api) sessions(ws websocket.Server) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if n := s.wsOpen.Add(1); n > int64(s.cfg.MaxSessions) {
			s.wsOpen.Add(-1)
			s.fail(w, &Error{Status: 503, Code: codeCapacity, Busy: true,
				Message: fmt.Sprintf("busy: all %d WebSocket sessions are open (--max-sessions %d); close one, or retry shortly", s.cfg.MaxSessions, s.cfg.MaxSessions)})
			return
		}
		defer s.wsOpen.Add(-1)
		ws.ServeHTTP(w, r)
	}
}

// auth refuses a request without the bearer token, when the server has one.
func (s api) auth(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.Token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="synth serve"`)
				s.fail(w, &Error{Status: 401, Code: codeAuth, Message: "this server needs a bearer token: send Authorization: Bearer TOKEN (the token synth serve was started with)"})
				return
			}
		}
		h(w, r)
	})
}

func (s api) handleMetadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{
		"name":        "synth",
		"description": fmt.Sprintf("code-interpreter tasks of %s: %d tasks; the reward is 1 when the task's checks pass in an isolated verifier, else 0", s.src.Name, len(s.src.Tasks)),
		"version":     s.cfg.Version,
		"tasks":       len(s.src.Tasks),
		"format":      s.cfg.Format.Name(),
		"max_turns":   s.cfg.MaxTurns,
	})
}

func (s api) handleTasks(w http.ResponseWriter, r *http.Request) {
	type entry struct {
		ID          string `json:"id"`
		Index       string `json:"index,omitempty"`
		Category    string `json:"category"`
		Subcategory string `json:"subcategory,omitempty"`
	}
	out := make([]entry, len(s.src.Tasks))
	for i, t := range s.src.Tasks {
		out[i] = entry{t.ID, t.Index, t.Category, t.Subcategory}
	}
	writeJSON(w, 200, out)
}

func (s api) handleReset(w http.ResponseWriter, r *http.Request) {
	var req ResetRequest
	if err := s.decode(r, &req, true); err != nil {
		s.fail(w, err)
		return
	}
	_, res, err := s.Reset(r.Context(), req)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, res)
}

// stepRequest is OpenEnv's step request with the episode it is for.
type stepRequest struct {
	Action    json.RawMessage `json:"action"`
	EpisodeID string          `json:"episode_id"`
	TimeoutS  *float64        `json:"timeout_s,omitempty"`
	RequestID string          `json:"request_id,omitempty"`
}

func (s api) handleStep(w http.ResponseWriter, r *http.Request) {
	var req stepRequest
	if err := s.decode(r, &req, false); err != nil {
		s.fail(w, err)
		return
	}
	msg, err := decodeAction(req.Action)
	if err != nil {
		s.fail(w, err)
		return
	}
	res, err := s.Step(r.Context(), req.EpisodeID, msg)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, res)
}

func (s api) handleState(w http.ResponseWriter, r *http.Request) {
	st, err := s.State(r.URL.Query().Get("episode_id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, st)
}

// action is what a step carries: the model's message, whole (role,
// content, tool_calls as OpenAI's API or a chat template writes them), or
// its content alone.
type action struct {
	Message  json.RawMessage `json:"message"`
	Content  *string         `json:"content"`
	Metadata map[string]any  `json:"metadata"`
}

func decodeAction(raw json.RawMessage) (schemas.Message, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return schemas.Message{}, errorf(422, codeValidation, `step: no action: send {"action": {"message": {"role": "assistant", "content": ...}}} or {"action": {"content": ...}}`)
	}
	var a action
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&a); err != nil {
		return schemas.Message{}, errorf(422, codeValidation, "step: the action is not {message} or {content}: %v", err)
	}
	switch {
	case a.Message != nil && a.Content != nil:
		return schemas.Message{}, errorf(422, codeValidation, "step: the action has both message and content: send one")
	case a.Content != nil:
		return schemas.Message{Role: schemas.RoleAssistant, Content: *a.Content}, nil
	case a.Message != nil:
		m, err := agent.DecodeMessage(a.Message)
		if err != nil {
			return schemas.Message{}, errorf(422, codeValidation, "step: action.message: %v", err)
		}
		if m.Role != "" && m.Role != schemas.RoleAssistant {
			return schemas.Message{}, errorf(422, codeValidation, "step: action.message has role %q: a step is the assistant's turn", m.Role)
		}
		return m, nil
	}
	return schemas.Message{}, errorf(422, codeValidation, `step: the action has neither message nor content`)
}

// decode reads a request body of at most MaxMessageBytes; an empty body is
// the zero request when empty is allowed.
func (s api) decode(r *http.Request, v any, empty bool) error {
	b, err := io.ReadAll(io.LimitReader(r.Body, s.cfg.MaxMessageBytes+1))
	if err != nil {
		return errorf(400, codeValidation, "reading the request: %v", err)
	}
	if int64(len(b)) > s.cfg.MaxMessageBytes {
		return errorf(413, codeValidation, "the request is over %d bytes (--max-message-bytes)", s.cfg.MaxMessageBytes)
	}
	if len(bytes.TrimSpace(b)) == 0 && empty {
		return nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return errorf(400, codeJSON, "the request is not the JSON expected: %v", err)
	}
	return nil
}

// fail answers err as JSON: {"detail": message, "code": ...}, with
// Retry-After when busy.
func (s api) fail(w http.ResponseWriter, err error) {
	s.metrics.count(func(c *Counts) { c.Errors++ })
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Status: 500, Code: codeExecution, Message: err.Error()}
	}
	if e.Status == 503 {
		w.Header().Set("Retry-After", "1")
	}
	status := e.Status
	if status == 499 { // the client went away
		status = 500
	}
	writeJSON(w, status, map[string]any{"detail": e.Message, "code": e.Code, "busy": e.Busy})
}

// replyTimeout is how long a client may take to read a reply (a client
// that never reads holds no goroutine for longer).
const replyTimeout = 30 * time.Second

func writeJSON(w http.ResponseWriter, status int, v any) {
	// Not every ResponseWriter has deadlines (httptest's recorder): then
	// there is none to set.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(replyTimeout))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
