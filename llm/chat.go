package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	openai "github.com/sashabaranov/go-openai"

	"synth/schemas"
)

// Request is one chat completion request.
type Request struct {
	// Model selects the endpoints; empty: the client's default model.
	Model    string
	Messages []schemas.Message
	// Temperature and TopP are sent when set, 0 included.
	Temperature *float64
	TopP        *float64
	MaxTokens   int // sent as max_tokens; 0: the server's default
	N           int // choices to return; 0 or 1: one
	Seed        *int
	Stop        []string
	Tools       []Tool
	// JSON asks for a JSON object reply (response_format json_object).
	JSON bool
	// Extra are body fields for this request; they override the config's.
	// A nil value removes a field.
	Extra map[string]any
	// CacheSalt tells apart requests that are equal but must not share a
	// cached reply, such as the samples of one task at a temperature above
	// 0. It is not sent.
	CacheSalt string
}

// Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage // JSON schema of the arguments
}

// Response is the reply to a Request.
type Response struct {
	Message      schemas.Message   // the first choice
	Choices      []schemas.Message // every choice, Message first
	FinishReason string            // of the first choice: stop, length, tool_calls
	Usage        schemas.Usage     // this call's tokens and cost (cost 0 when Cached)
	Model        string            // as the server named it
	Endpoint     string            // base URL of the endpoint that answered
	Cached       bool              // answered from the response cache; no request made
	Attempts     int               // HTTP attempts made (0 when Cached)
}

// Chat sends req to an endpoint serving its model, waiting for a free slot
// and the rate limits, retrying what is worth retrying. Errors are *Error
// (see Retry and Fatal), a budget error (IsBudget), or ctx's error.
func (c *Client) Chat(ctx context.Context, req Request) (Response, error) {
	resp, err := c.chat(ctx, req)
	if err != nil && IsFatal(err) {
		c.meter.stop(err)
	}
	return resp, err
}

func (c *Client) chat(ctx context.Context, req Request) (Response, error) {
	if err := c.meter.check(c.cfg); err != nil {
		return Response{}, err
	}
	model := req.Model
	if model == "" {
		model = c.defaultModel
	}
	p := c.pools[model]
	if p == nil {
		return Response{}, &Error{Endpoint: "-", Msg: fmt.Sprintf("no endpoint serves model %q", model), Fix: "add one under llm.endpoints", fatal: true}
	}
	ep, err := p.acquire(ctx)
	if err != nil {
		return Response{}, err
	}
	cl := &call{fields: c.fields(ep, req), salt: req.CacheSalt}
	defer func() { p.release(ep, cl.outcome()) }()
	// Calls may have waited for the slot while others spent the budget.
	if err := c.meter.check(c.cfg); err != nil {
		return Response{}, err
	}
	resp, err := ep.api.CreateChatCompletion(withCall(ctx, cl), c.openaiRequest(model, req))
	if err != nil {
		c.meter.fail()
		if ctx.Err() != nil {
			return Response{}, ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return Response{}, err
		}
		var e *Error
		if errors.As(err, &e) {
			c.log.Warn("llm request failed", "endpoint", ep.name, "err", e)
			return Response{}, e
		}
		var ae *openai.APIError
		if errors.As(err, &ae) {
			return Response{}, classify(ep.name, ep.keyEnv, model, ae.HTTPStatusCode, ae.Message, nil, zeroTime)
		}
		// go-openai refused to build the request or to read the reply.
		return Response{}, &Error{Endpoint: ep.name, Msg: err.Error(), Err: err}
	}
	out := Response{Model: resp.Model, Endpoint: ep.name, Cached: cl.cached, Attempts: cl.attempts}
	for _, ch := range resp.Choices {
		out.Choices = append(out.Choices, fromOpenAI(ch.Message))
	}
	if len(out.Choices) == 0 {
		c.meter.fail()
		return Response{}, &Error{Endpoint: ep.name, Msg: "reply has no choices"}
	}
	cl.tokens = int64(resp.Usage.CompletionTokens)
	out.Message = out.Choices[0]
	out.FinishReason = string(resp.Choices[0].FinishReason)
	u := resp.Usage
	out.Usage = schemas.Usage{PromptTokens: int64(u.PromptTokens), CompletionTokens: int64(u.CompletionTokens)}
	if u.PromptTokensDetails != nil {
		out.Usage.CachedTokens = int64(u.PromptTokensDetails.CachedTokens)
	}
	if cl.cached {
		c.meter.hit()
		return out, nil
	}
	out.Usage.CostUSD = c.cfg.Prices[model].Cost(out.Usage.PromptTokens, out.Usage.CachedTokens, out.Usage.CompletionTokens)
	ep.chargeTokens(int(out.Usage.PromptTokens+out.Usage.CompletionTokens) - estimateTokens(cl.body))
	c.meter.add(out.Usage)
	return out, nil
}

// fields are the body fields go-openai cannot send: temperature and top_p
// when 0, and the extras of config, endpoint and request, in that order.
func (c *Client) fields(ep *endpoint, req Request) map[string]any {
	f := map[string]any{}
	maps.Copy(f, c.cfg.Extra)
	maps.Copy(f, ep.cfg.Extra)
	if req.Temperature != nil {
		f["temperature"] = *req.Temperature
	}
	if req.TopP != nil {
		f["top_p"] = *req.TopP
	}
	if req.MaxTokens > 0 {
		// Set here, not in go-openai's request, whose checks for reasoning
		// models refuse max_tokens before anything is sent.
		f["max_tokens"] = req.MaxTokens
	}
	maps.Copy(f, req.Extra)
	return f
}

func (c *Client) openaiRequest(model string, req Request) openai.ChatCompletionRequest {
	r := openai.ChatCompletionRequest{Model: model, Seed: req.Seed, Stop: req.Stop}
	if req.N > 1 {
		r.N = req.N
	}
	if req.JSON {
		r.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	for _, t := range req.Tools {
		r.Tools = append(r.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: t.Name, Description: t.Description, Parameters: t.Parameters}})
	}
	for _, m := range req.Messages {
		r.Messages = append(r.Messages, toOpenAI(m))
	}
	return r
}

func toOpenAI(m schemas.Message) openai.ChatCompletionMessage {
	o := openai.ChatCompletionMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
	for _, tc := range m.ToolCalls {
		o.ToolCalls = append(o.ToolCalls, openai.ToolCall{ID: tc.ID, Type: openai.ToolTypeFunction,
			Function: openai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
	}
	return o
}

func fromOpenAI(o openai.ChatCompletionMessage) schemas.Message {
	m := schemas.Message{Role: o.Role, Content: o.Content, ToolCallID: o.ToolCallID}
	if m.Role == "" {
		m.Role = schemas.RoleAssistant
	}
	if m.Content == "" && len(o.MultiContent) > 0 {
		for _, p := range o.MultiContent {
			m.Content += p.Text
		}
	}
	for _, tc := range o.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, schemas.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return m
}
