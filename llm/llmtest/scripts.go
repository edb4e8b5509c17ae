package llmtest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"synth/schemas"
)

// Always answers every call with r.
func Always(r Reply) Script { return func(Call) Reply { return r } }

// Say answers with an assistant message.
func Say(content string) Script { return Always(Reply{Content: content}) }

// Status answers with an HTTP error; retryAfter, when positive, is sent as
// Retry-After in whole seconds.
func Status(code int, retryAfter time.Duration) Script {
	r := Reply{Status: code}
	if retryAfter > 0 {
		r.Header = map[string]string{"Retry-After": strconv.Itoa(int(retryAfter.Round(time.Second) / time.Second))}
	}
	return Always(r)
}

// TooManyRequests is a 429 with Retry-After.
func TooManyRequests(retryAfter time.Duration) Script {
	return Status(http.StatusTooManyRequests, retryAfter)
}

// Slow delays the reply of s by d.
func Slow(d time.Duration, s Script) Script {
	return func(c Call) Reply {
		r := s(c)
		r.Delay += d
		return r
	}
}

// Drop closes the connection without a reply.
func Drop() Script { return Always(Reply{Drop: true}) }

// CallTool answers with an execute_python tool call running code.
func CallTool(code string) Script {
	return func(Call) Reply { return ToolReply(code) }
}

// ToolReply is a reply calling execute_python with code.
func ToolReply(code string) Reply {
	args, _ := json.Marshal(map[string]string{"code": code})
	return Reply{ToolCalls: []schemas.ToolCall{{Name: "execute_python", Arguments: string(args)}}}
}

// Conversation answers a rollout turn by turn: the reply to a call whose
// conversation already holds k assistant messages is turns[k], the last
// one repeating. Rollouts of many tasks may interleave.
func Conversation(turns ...Reply) Script {
	return func(c Call) Reply { return turns[min(c.Turn(), len(turns)-1)] }
}

// Texts is Conversation with plain assistant messages.
func Texts(turns ...string) Script {
	rs := make([]Reply, len(turns))
	for i, t := range turns {
		rs[i] = Reply{Content: t}
	}
	return Conversation(rs...)
}

// PyBench writes an assistant turn in PyBench's format with code.
func PyBench(analyse, todo, code string) string {
	return "Analyse: " + analyse + "\nThis Step Todo: " + todo + "\n\nAction:\n\n```python\n" + code + "\n```"
}

// Pick chooses a script per call, e.g. by the task's query, to play
// teachers that solve some tasks and fail others.
func Pick(choose func(Call) Script) Script {
	return func(c Call) Reply { return choose(c)(c) }
}

// Raw answers 200 with body as it is: garbage, an HTML page, or JSON that
// is not a chat completion.
func Raw(body string) Script { return Always(Reply{Body: body}) }

// NoChoices is a 200 that looks like a chat completion but has no choices.
func NoChoices() Script {
	return Raw(`{"id":"chatcmpl-0","object":"chat.completion","created":1700000000,"model":"m","choices":[]}`)
}

// Storm answers the first n calls with HTTP status, then hands over to
// then: a server that fails for a while and recovers.
func Storm(n, status int, then Script) Script {
	return func(c Call) Reply {
		if c.N < n {
			return Reply{Status: status}
		}
		return then(c)
	}
}

// CutOff is a reply the server stopped at its token limit:
// finish_reason "length".
func CutOff(content string) Reply { return Reply{Content: content, FinishReason: "length"} }
