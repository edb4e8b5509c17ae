package llm

import (
	"errors"
	"fmt"
	"time"
)

// Error is a failed call, classified by what the caller should do about it
// (as rclone's fserrors does): retry it, give up on this request, or stop
// the run.
type Error struct {
	Endpoint string // the base URL, never the key
	Status   int    // HTTP status, 0 for transport errors
	Msg      string // what happened
	Fix      string // what the user can do, if anything
	Err      error  // the underlying error, if any

	retry         bool
	fatal         bool
	contextLength bool
	replyTooLong  bool
	badReply      bool // a 200 that is not a chat completion
	timeout       bool // no reply within llm.timeout; not retried
	retryAfter    time.Time
}

// ReplyTooLong reports whether the reply was past llm.max_reply_bytes (the
// model's doing: not retried).
func (e *Error) ReplyTooLong() bool { return e.replyTooLong }

// ContextLength reports whether the request was refused because the
// conversation exceeds the model's context.
func (e *Error) ContextLength() bool { return e.contextLength }

func (e *Error) Error() string {
	s := "endpoint " + e.Endpoint + ": "
	if e.Status != 0 {
		s += fmt.Sprintf("HTTP %d: ", e.Status)
	}
	s += e.Msg
	if e.Fix != "" {
		s += " (" + e.Fix + ")"
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Retry reports whether the same request may succeed later.
func (e *Error) Retry() bool { return e.retry }

// Fatal reports whether the run should stop: the error will recur for every
// request (a bad key, a wrong URL or model) or the budget is spent.
func (e *Error) Fatal() bool { return e.fatal }

// RetryAfter is when the server asked to be called again; zero if it did not.
func (e *Error) RetryAfter() time.Time { return e.retryAfter }

// ErrBudget is returned, wrapped, by every call once the configured
// max_cost_usd or max_tokens is reached.
var ErrBudget = errors.New("budget reached")

// budgetError carries the spend that stopped the run.
type budgetError struct {
	spentUSD    float64
	spentTokens int64
	limit       string
}

func (e *budgetError) Error() string {
	return fmt.Sprintf("budget reached: %s (spent $%.4f, %d tokens); raise it and rerun to resume", e.limit, e.spentUSD, e.spentTokens)
}
func (e *budgetError) Unwrap() error { return ErrBudget }
func (e *budgetError) Retry() bool   { return false }
func (e *budgetError) Fatal() bool   { return true }
func (e *budgetError) Budget() bool  { return true }

// IsBudget reports whether err comes from a spent budget (such errors
// also have a method Budget() bool returning true). The run should
// stop taking work, record in-flight rollouts with stop reason budget, and
// exit cleanly: a rerun with a larger budget resumes.
func IsBudget(err error) bool { return errors.Is(err, ErrBudget) }

// IsFatal reports whether err should stop the run (a budget included).
func IsFatal(err error) bool {
	var f interface{ Fatal() bool }
	return errors.As(err, &f) && f.Fatal()
}

// IsRetryable reports whether err is worth retrying later.
func IsRetryable(err error) bool {
	var r interface{ Retry() bool }
	return errors.As(err, &r) && r.Retry()
}

// classify turns an HTTP status and the reply body into an Error. msg is
// the error message extracted from body; body is searched too, since some
// servers say what happened only in an error type field.
func classify(endpoint, keyEnv, model string, status int, msg string, body []byte, retryAfter time.Time) *Error {
	e := &Error{Endpoint: endpoint, Status: status, Msg: msg, retryAfter: retryAfter}
	switch {
	case status >= 400 && (isContextLength(msg) || isContextLength(string(body))):
		// One long conversation is too long; others may fit. Checked
		// first: llama.cpp has said so with a 500, TGI with a 422.
		e.contextLength = true
		e.Fix = "the conversation exceeds the model's context; lower teacher.max_turns or teacher.max_observation, or serve the model with a longer context"
	case status == 429 || status == 408 || status >= 500:
		e.retry = true
	case status == 401:
		e.fatal = true
		e.Fix = fmt.Sprintf("check the API key in $%s", keyEnv)
	case status == 403:
		e.fatal = true
		e.Fix = fmt.Sprintf("the key in $%s may not use model %q; check the account's access", keyEnv, model)
	case status == 404:
		e.fatal = true
		e.Fix = fmt.Sprintf("check base_url (it usually ends in /v1) and that the server serves model %q", model)
	case status == 400 || status == 422:
		e.fatal = true
		e.Fix = "the server rejected the request; check the model name and the extra body fields in the llm config"
	default:
		e.fatal = status >= 400
	}
	return e
}

// contextWordings are how servers say a conversation is longer than the
// model's context (see testdata/context_overflow.json for the whole
// replies): OpenAI, vLLM, SGLang, the llama.cpp server, Ollama and TGI.
var contextWordings = []string{
	"context_length_exceeded",              // OpenAI's error code
	"maximum context length",               // OpenAI, vLLM
	"longer than the model's context",      // SGLang: "The input (N tokens) is longer than the model's context length (M tokens)."
	"longer than the maximum model length", // vLLM: "The decoder prompt (length N) is longer than the maximum model length of M."
	"exceeds the available context size",   // llama.cpp server
	"exceed_context_size_error",            // llama.cpp server's error type
	"context size has been exceeded",       // llama.cpp server, older
	"exceeded max context length",          // Ollama: "prompt too long; exceeded max context length by N tokens"
	"input exceeds context length",         // Ollama runner
	"tokens + `max_new_tokens` must be <=", // TGI
	"`inputs` must have less than",         // TGI
	"prompt is too long",                   // Anthropic-style proxies
	"context window",
	"context length",
}

func isContextLength(msg string) bool {
	for _, s := range contextWordings {
		if containsFold(msg, s) {
			return true
		}
	}
	return false
}
