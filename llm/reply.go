package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// badReplyRetries bounds the retries of a 200 whose body is not a chat
// completion: a proxy's HTML page or a server bug does not mend itself
// within seconds, and every retry costs a request.
const badReplyRetries = 2

// checkCompletion returns nil when b is a chat completion with at least one
// choice carrying a message, and an *Error otherwise: an error object sent
// with status 200 (as some servers do) is classified like its message, and
// anything else is a retryable infrastructure error quoting the body's first
// bytes.
func (t *transport) checkCompletion(status int, b []byte) error {
	var r struct {
		Choices []struct {
			Message *json.RawMessage `json:"message"`
		} `json:"choices"`
		Error json.RawMessage `json:"error"`
	}
	bad := func(what string) error {
		return &Error{Endpoint: t.ep.name, Status: status, retry: true, badReply: true,
			Msg: fmt.Sprintf("the reply is not a chat completion (%s): %s", what, firstBytes(b, 200)),
			Fix: "check that base_url is the OpenAI-compatible API root (it usually ends in /v1) and that nothing between synth and the server rewrites replies"}
	}
	if err := json.Unmarshal(b, &r); err != nil {
		if !json.Valid(b) {
			return bad("not JSON, or cut off")
		}
		return bad("not a JSON object of the expected shape")
	}
	if len(r.Error) > 0 && string(r.Error) != "null" && len(r.Choices) == 0 {
		e := classify(t.ep.name, t.ep.keyEnv, t.ep.cfg.Model, 500, errorMessage(b, "error"), b, zeroTime)
		e.Status = status
		if !e.contextLength {
			e.retry, e.fatal, e.badReply = true, false, true
			e.Fix = ""
		}
		return e
	}
	switch {
	case r.Choices == nil:
		return bad("no choices")
	case len(r.Choices) == 0:
		return bad("an empty list of choices")
	case r.Choices[0].Message == nil || string(*r.Choices[0].Message) == "null":
		return bad("the first choice has no message")
	}
	return nil
}

// firstBytes quotes the start of a body for an error message: at most n
// bytes, cut on a rune boundary, control characters escaped.
func firstBytes(b []byte, n int) string {
	cut := len(b) > n
	if cut {
		b = b[:n]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	s := fmt.Sprintf("%q", strings.TrimSpace(string(b)))
	if cut {
		s += fmt.Sprintf(" (first %d bytes)", n)
	}
	if len(b) == 0 {
		s = "an empty body"
	}
	return s
}
