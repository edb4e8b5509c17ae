package tokens

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"

	"synth/schemas"
)

// Encoding is the tiktoken encoding the counts use.
const Encoding = "o200k_base"

var codec = sync.OnceValue(func() tokenizer.Codec {
	c, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		panic("tokens: " + Encoding + " is built in: " + err.Error())
	}
	return c
})

// Count returns the number of tokens of s. It is safe for concurrent use.
// Invalid UTF-8 is counted as it stands.
func Count(s string) int {
	if s == "" {
		return 0
	}
	n, err := codec().Count(s)
	if err != nil {
		// Count fails only on invalid UTF-8 in strict mode, which is not
		// set; a byte estimate keeps the count usable regardless.
		return (len(s) + 3) / 4
	}
	return n
}

// Messages returns the tokens of the messages' contents and tool-call
// arguments. Role markers and chat-template tokens are not counted: the figure
// is comparable across datasets, not the length a given template produces.
func Messages(msgs []schemas.Message) int64 {
	var n int64
	for _, m := range msgs {
		n += int64(Count(m.Content))
		for _, c := range m.ToolCalls {
			n += int64(Count(c.Name) + Count(c.Arguments))
		}
	}
	return n
}

// RowMessages is Messages for the messages of a dataset row.
func RowMessages(msgs []schemas.RowMessage) int64 {
	var n int64
	for _, m := range msgs {
		n += int64(Count(m.Content))
		for _, c := range m.ToolCalls {
			n += int64(Count(c.Name) + Count(c.Arguments))
		}
	}
	return n
}
