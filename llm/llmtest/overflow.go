package llmtest

// Overflow is how one server engine refuses a conversation longer than the
// model's context: its status and body, as the engine sends them.
type Overflow struct {
	Engine string
	Status int
	Body   string
}

// Reply is the refusal as a scripted reply.
func (o Overflow) Reply() Reply { return Reply{Status: o.Status, Body: o.Body} }

// Overflows are the context-overflow replies of the servers synth is used
// with, in their own wording (from their error handlers and users' reports
// of them).
var Overflows = []Overflow{
	{"openai", 400, `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`},
	{"vllm", 400, `{"object":"error","message":"This model's maximum context length is 16384 tokens. However, you requested 19591 tokens (9591 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`},
	{"vllm-decoder-prompt", 400, `{"object":"error","message":"The decoder prompt (length 33012) is longer than the maximum model length of 32768. Make sure that ` + "`max_model_len`" + ` is no smaller than the number of text tokens.","type":"BadRequestError","param":null,"code":400}`},
	{"sglang", 400, `{"object":"error","message":"The input (61709 tokens) is longer than the model's context length (40960 tokens).","type":"BadRequestError","param":null,"code":400}`},
	{"llama.cpp", 400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":14429,"n_ctx":8192}}`},
	{"llama.cpp-500", 500, `{"error":{"code":500,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":1407,"n_ctx":256}}`},
	{"llama.cpp-old", 500, `{"error":{"code":500,"message":"Context size has been exceeded.","type":"server_error"}}`},
	{"llama.cpp-200", 200, `{"error":{"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":14429,"n_ctx":8192}}`},
	{"ollama", 400, `{"error":{"message":"prompt too long; exceeded max context length by 4096 tokens","type":"invalid_request_error","param":null,"code":null}}`},
	{"ollama-native", 400, `{"error":"prompt too long; exceeded max context length by 540451 tokens"}`},
	{"tgi", 422, `{"error":"Input validation error: ` + "`inputs` tokens + `max_new_tokens`" + ` must be <= 4096. Given: 4000 ` + "`inputs`" + ` tokens and 200 ` + "`max_new_tokens`" + `","error_type":"validation"}`},
	{"tgi-inputs", 422, `{"error":"Input validation error: ` + "`inputs`" + ` must have less than 2048 tokens. Given: 2222","error_type":"validation"}`},
}
