package tokens

import (
	"hash/maphash"
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
//
// Counting is slow (a few MB of text per second), and a trajectory is
// counted twice on its way to the dataset (quality gate, then row), so the
// last results are remembered by a hash of the text.
func Messages(msgs []schemas.Message) int64 {
	var h maphash.Hash
	h.SetSeed(seed)
	for _, m := range msgs {
		h.WriteString(m.Content)
		h.WriteByte(0)
		for _, c := range m.ToolCalls {
			h.WriteString(c.Name)
			h.WriteByte(0)
			h.WriteString(c.Arguments)
			h.WriteByte(0)
		}
		h.WriteByte(1)
	}
	key := h.Sum64()
	if n, ok := recent.get(key); ok {
		return n
	}
	var n int64
	for _, m := range msgs {
		n += int64(Count(m.Content))
		for _, c := range m.ToolCalls {
			n += int64(Count(c.Name) + Count(c.Arguments))
		}
	}
	recent.put(key, n)
	return n
}

var (
	seed   = maphash.MakeSeed()
	recent = &memo{m: map[uint64]int64{}}
)

// memoSize is how many counts memo keeps.
const memoSize = 4096

// memo remembers the last memoSize counts, oldest out first.
type memo struct {
	mu    sync.Mutex
	m     map[uint64]int64
	order []uint64
}

func (c *memo) get(k uint64) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.m[k]
	return n, ok
}

func (c *memo) put(k uint64, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		return
	}
	if len(c.order) == memoSize {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[k] = n
	c.order = append(c.order, k)
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
