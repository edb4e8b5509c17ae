package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"

	"synth/tokens"
)

// statsRow is the part of a row the statistics read, in every layout they
// accept; parquet-go fills the columns the file has and leaves the rest zero.
type statsRow struct {
	Messages      []statsMessage `parquet:"messages,optional,list" json:"messages"`
	Conversations []statsMessage `parquet:"conversations,optional,list" json:"conversations"`
	Category      string         `parquet:"category,optional" json:"category"`
	Passed        *bool          `parquet:"passed,optional" json:"passed"`
	Tokens        *int64         `parquet:"tokens,optional" json:"tokens"`
	// Verdict is a trajectories.jsonl record's verdict.
	Verdict *struct {
		Passed bool `json:"passed"`
	} `parquet:"-" json:"verdict"`
}

type statsMessage struct {
	Role    string      `parquet:"role,optional" json:"role"`
	Content string      `parquet:"content,optional" json:"-"`
	From    string      `parquet:"from,optional" json:"from"`
	Value   string      `parquet:"value,optional" json:"value"`
	Raw     jsonContent `parquet:"-" json:"content"`
}

// jsonContent is a JSON message content: a string, null, or OpenAI's list
// of parts, of which the text parts count.
type jsonContent string

func (c *jsonContent) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*c = ""
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*c = jsonContent(s)
	case b[0] == '[':
		var parts []struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(b, &parts); err != nil {
			return err
		}
		var sb strings.Builder
		for _, p := range parts {
			sb.WriteString(p.Text)
		}
		*c = jsonContent(sb.String())
	default:
		*c = jsonContent(b)
	}
	return nil
}

func readFileStats(path string, c *tokenCounter) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet":
		return readParquetStats(path, c)
	case ".jsonl":
		return readJSONLStats(path, c)
	}
	return readJSONStats(path, c)
}

func readParquetStats(path string, c *tokenCounter) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return err
	}
	if !hasColumn(pf.Schema(), "messages") && !hasColumn(pf.Schema(), "conversations") {
		return errors.New("no messages or conversations column: not a chat dataset")
	}
	r := parquet.NewGenericReader[statsRow](pf)
	defer r.Close()
	buf := make([]statsRow, 64)
	for {
		n, err := r.Read(buf)
		for i := range buf[:n] {
			c.add(&buf[i], false)
		}
		clear(buf[:n])
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func hasColumn(s *parquet.Schema, name string) bool {
	for _, f := range s.Fields() {
		if f.Name() == name {
			return true
		}
	}
	return false
}

func readJSONLStats(path string, c *tokenCounter) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var r statsRow
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		c.add(&r, true)
	}
	return sc.Err()
}

func readJSONStats(path string, c *tokenCounter) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReader(f))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return errors.New("want a JSON array of rows (or use .jsonl for one row per line)")
	}
	for i := 0; dec.More(); i++ {
		var r statsRow
		if err := dec.Decode(&r); err != nil {
			return fmt.Errorf("row %d: %w", i, err)
		}
		c.add(&r, true)
	}
	return nil
}

// tokenCounter turns rows into samples, counting tokens offline on all
// cores while the reader goes on.
type tokenCounter struct {
	fromColumn bool
	texts      chan countJob
	wg         sync.WaitGroup
	mu         sync.Mutex
	stats      Stats
	offline    bool
	column     bool
}

type countJob struct {
	s    Sample
	text []string
}

func newTokenCounter(from string) *tokenCounter {
	c := &tokenCounter{fromColumn: from == TokensSourceColumn, texts: make(chan countJob, 256)}
	for range runtime.GOMAXPROCS(0) {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			for j := range c.texts {
				for _, t := range j.text {
					j.s.Tokens += int64(tokens.Count(t))
				}
				c.mu.Lock()
				c.stats.Add(j.s)
				c.mu.Unlock()
			}
		}()
	}
	return c
}

func (c *tokenCounter) add(r *statsRow, fromJSON bool) {
	msgs := r.Messages
	if len(msgs) == 0 {
		msgs = r.Conversations
	}
	s := Sample{Category: r.Category, Passed: r.Passed}
	if s.Passed == nil && r.Verdict != nil {
		s.Passed = &r.Verdict.Passed
	}
	text := make([]string, 0, len(msgs))
	for i := range msgs {
		m := &msgs[i]
		role, content := m.Role, m.Content
		if fromJSON {
			content = string(m.Raw)
		}
		if role == "" {
			role, content = shareGPTRole(m.From), m.Value
		}
		if role == "assistant" {
			s.Turns++
		}
		text = append(text, content)
	}
	if c.fromColumn && r.Tokens != nil {
		s.Tokens = *r.Tokens
		c.column = true
		c.mu.Lock()
		c.stats.Add(s)
		c.mu.Unlock()
		return
	}
	c.offline = true
	c.texts <- countJob{s: s, text: text}
}

func (c *tokenCounter) finish() Stats {
	close(c.texts)
	c.wg.Wait()
	switch {
	case c.column && c.offline:
		c.stats.TokensCounted = "mixed: tokens column where present, else offline o200k_base"
	case c.column:
		c.stats.TokensCounted = TokensFromColumn
	default:
		c.stats.TokensCounted = TokensOffline
	}
	return c.stats
}

// shareGPTRole maps ShareGPT's from field to a chat role.
func shareGPTRole(from string) string {
	switch from {
	case "human", "user":
		return "user"
	case "gpt", "assistant", "model":
		return "assistant"
	case "system":
		return "system"
	case "tool", "function", "observation":
		return "tool"
	}
	return from
}
