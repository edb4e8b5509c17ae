package serve

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"golang.org/x/net/websocket"
)

// wsMessage is a message of OpenEnv's WebSocket protocol, both ways:
// reset, step, state and close from the client; observation, state and
// error from the server.
type wsMessage struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data,omitempty"`
}

// session serves one WebSocket connection: one episode at a time, as
// OpenEnv's client expects of a session. A reset while an episode is open
// abandons it; so do close and a dropped connection. A connection silent
// for the idle timeout is closed.
func (s api) session(c *websocket.Conn) {
	defer c.Close()
	if !s.track(c, true) {
		s.wsError(c, errorf(503, codeCapacity, "the server is shutting down"))
		return
	}
	defer s.track(c, false)
	c.MaxPayloadBytes = int(s.cfg.MaxMessageBytes)
	var current string
	defer func() {
		if current != "" {
			s.Abandon(current)
		}
	}()
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	for {
		c.SetReadDeadline(time.Now().Add(s.cfg.IdleTimeout))
		var raw []byte
		if err := websocket.Message.Receive(c, &raw); err != nil {
			if errors.Is(err, websocket.ErrFrameTooLarge) {
				s.wsError(c, errorf(413, codeValidation, "the message is over %d bytes (--max-message-bytes)", s.cfg.MaxMessageBytes))
			}
			return
		}
		var m wsMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			s.wsError(c, errorf(400, codeJSON, "Invalid JSON: %v", err))
			continue
		}
		var reply any
		var err error
		switch m.Type {
		case "reset":
			var req ResetRequest
			if len(m.Data) > 0 {
				if err = json.Unmarshal(m.Data, &req); err != nil {
					err = errorf(400, codeValidation, "reset: %v", err)
					break
				}
			}
			if current != "" {
				s.Abandon(current)
				current = ""
			}
			var e *episode
			var res Result
			if e, res, err = s.Reset(ctx, req); err == nil {
				current, reply = e.id, wsMessage{Type: "observation", Data: mustJSON(res)}
			}
		case "step":
			var msg = m.Data
			if current == "" {
				err = errorf(409, codeSession, "step before reset: send a reset first")
				break
			}
			sm, derr := decodeAction(msg)
			if derr != nil {
				err = derr
				break
			}
			var res Result
			if res, err = s.Step(ctx, current, sm); err == nil {
				reply = wsMessage{Type: "observation", Data: mustJSON(res)}
			}
		case "state":
			if current == "" {
				err = errorf(409, codeSession, "state before reset: send a reset first")
				break
			}
			var st State
			if st, err = s.State(current); err == nil {
				reply = wsMessage{Type: "state", Data: mustJSON(st)}
			}
		case "close":
			return
		default:
			err = errorf(400, codeType, "Unknown message type: %q (want reset, step, state or close)", m.Type)
		}
		if err != nil {
			s.wsError(c, err)
			continue
		}
		if send(c, reply) != nil {
			return
		}
	}
}

func (s api) wsError(c *websocket.Conn, err error) {
	s.metrics.count(func(c *Counts) { c.Errors++ })
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Code: codeExecution, Message: err.Error()}
	}
	send(c, wsMessage{Type: "error", Data: mustJSON(map[string]any{"message": e.Message, "code": e.Code})})
}

// send writes v to c, or fails when the client has not taken it within
// replyTimeout.
func send(c *websocket.Conn, v any) error {
	c.SetWriteDeadline(time.Now().Add(replyTimeout))
	return websocket.JSON.Send(c, v)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own types are marshalled
	}
	return b
}
