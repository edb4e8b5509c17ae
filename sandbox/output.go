package sandbox

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// cellOutput collects one cell's output between its begin and end markers,
// keeping the head and the tail when it exceeds the limit.
type cellOutput struct {
	begin, end []byte
	started    bool
	finished   bool
	pending    []byte // bytes that may be the start of a marker

	limit int
	head  []byte
	tail  []byte // ring of the last bytes, once head is full
	total int64
}

func newCellOutput(token string, seq, limit int) *cellOutput {
	mk := func(kind string) []byte { return fmt.Appendf(nil, "\x00\x1esynth:%s:%d:%s\x1e\x00", token, seq, kind) }
	return &cellOutput{begin: mk("B"), end: mk("E"), limit: limit}
}

// feed consumes a chunk of the output stream; it reports whether the end
// marker has been seen.
func (c *cellOutput) feed(p []byte) bool {
	if c.finished {
		return true
	}
	data := append(c.pending, p...)
	c.pending = nil
	if !c.started {
		i := bytes.Index(data, c.begin)
		if i < 0 {
			c.pending = keepTail(data, len(c.begin)-1)
			return false
		}
		c.started = true
		data = data[i+len(c.begin):]
	}
	if i := bytes.Index(data, c.end); i >= 0 {
		c.add(data[:i])
		c.finished = true
		return true
	}
	hold := len(c.end) - 1
	if hold > len(data) {
		hold = len(data)
	}
	c.add(data[:len(data)-hold])
	c.pending = append([]byte(nil), data[len(data)-hold:]...)
	return false
}

// flush moves held-back bytes into the output (the stream ended without
// an end marker).
func (c *cellOutput) flush() {
	if c.started && !c.finished {
		c.add(c.pending)
	}
	c.pending = nil
}

func keepTail(b []byte, n int) []byte {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return append([]byte(nil), b...)
}

func (c *cellOutput) add(p []byte) {
	c.total += int64(len(p))
	headMax := c.limit * 3 / 4
	if room := headMax - len(c.head); room > 0 {
		n := min(room, len(p))
		c.head = append(c.head, p[:n]...)
		p = p[n:]
	}
	if len(p) == 0 {
		return
	}
	tailMax := c.limit - headMax
	c.tail = append(c.tail, p...)
	if len(c.tail) > 2*tailMax+4096 {
		c.tail = append(c.tail[:0], c.tail[len(c.tail)-tailMax:]...)
	}
}

// text is the collected output as valid UTF-8, and whether it was cut.
func (c *cellOutput) text() (string, bool) {
	tailMax := c.limit - c.limit*3/4
	tail := c.tail
	if len(tail) > tailMax {
		tail = tail[len(tail)-tailMax:]
	}
	kept := int64(len(c.head) + len(tail))
	if c.total <= kept {
		return clean(append(append([]byte(nil), c.head...), tail...)), false
	}
	omitted := c.total - kept
	return clean(c.head) + fmt.Sprintf("\n... [output truncated: %d bytes omitted of %d] ...\n", omitted, c.total) + clean(tail), true
}

// clean makes output safe to store: valid UTF-8, no NUL bytes.
func clean(b []byte) string {
	s := string(b)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.ReplaceAll(s, "\x00", "")
}
