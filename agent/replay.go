package agent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"synth/schemas"
)

// Replay is a teacher that plays the assistant turns recorded in a
// trajectory file, so the code of someone else's rollouts runs again in
// synth's sandbox and its checks judge the result.
//
// A task is matched by its ID against synth trajectories' task_id, then by
// its Index against PyBench records' index. Sample s plays the s-th
// recording of the task in file order.
type Replay struct {
	path   string
	model  string
	byTask map[string][][]schemas.Message // assistant turns per recording
	byIdx  map[string][][]schemas.Message
}

// ErrNotRecorded is returned, wrapped, by Reply when the file has no
// recording for the task or sample, or its recording has no further turn.
var ErrNotRecorded = errors.New("not recorded")

// MaxReplayLine bounds one line of a replay file, in bytes: one
// trajectory, all of its turns.
const MaxReplayLine = 64 << 20

// LoadReplay reads a trajectory file: PyBench's trajectory.jsonl (lines
// with "index" and "messages") or synth's trajectories.jsonl (lines with
// "task_id" and "messages"); both may be mixed. Blank lines are skipped; a
// line that is neither, or longer than MaxReplayLine, is an error naming
// its number.
func LoadReplay(path string) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	r := &Replay{path: path, byTask: map[string][][]schemas.Message{}, byIdx: map[string][][]schemas.Message{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), MaxReplayLine)
	n := 1
	for ; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var rec replayRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("replay %s:%d: %w", path, n, err)
		}
		if rec.Messages == nil && rec.Trajectory != nil {
			rec.Messages, rec.Teacher = rec.Trajectory.Messages, rec.Trajectory.Teacher
		}
		turns := rec.assistantTurns()
		idx := rec.index()
		switch {
		case rec.TaskID != "":
			r.byTask[rec.TaskID] = append(r.byTask[rec.TaskID], turns)
			if r.model == "" {
				r.model = rec.Teacher.Model
			}
		case idx != "":
			r.byIdx[idx] = append(r.byIdx[idx], turns)
		default:
			return nil, fmt.Errorf("replay %s:%d: a line needs \"task_id\" (synth) or \"index\" (PyBench)", path, n)
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("replay %s:%d: line longer than %d bytes (one trajectory per line; is this a trajectory file?)", path, n, MaxReplayLine)
	} else if err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	if len(r.byTask)+len(r.byIdx) == 0 {
		return nil, fmt.Errorf("replay %s: no trajectories in the file", path)
	}
	return r, nil
}

// Len is the number of tasks recorded.
func (r *Replay) Len() int { return len(r.byTask) + len(r.byIdx) }

// Recordings is how many recordings the file has for task.
func (r *Replay) Recordings(task *schemas.Task) int { return len(r.lookup(task)) }

func (r *Replay) lookup(task *schemas.Task) [][]schemas.Message {
	if rs, ok := r.byTask[task.ID]; ok {
		return rs
	}
	if task.Index != "" {
		return r.byIdx[task.Index]
	}
	return nil
}

// Info implements Teacher.
func (r *Replay) Info() schemas.TeacherInfo {
	model := r.model
	if model == "" {
		model = filepath.Base(r.path)
	}
	return schemas.TeacherInfo{Kind: "replay", Model: model}
}

// Reply implements Teacher: the recorded turn after the assistant turns
// already in the conversation.
func (r *Replay) Reply(_ context.Context, req Request) (Reply, error) {
	recs := r.lookup(req.Task)
	if req.Sample >= len(recs) {
		return Reply{}, fmt.Errorf("replay %s: task %s (index %q) sample %d: %w (the file has %d recordings of it)",
			r.path, req.Task.ID, req.Task.Index, req.Sample, ErrNotRecorded, len(recs))
	}
	turns := recs[req.Sample]
	n := assistantTurns(req.Messages)
	if n >= len(turns) {
		return Reply{}, fmt.Errorf("replay %s: task %s sample %d: turn %d: %w (the recording ends after %d turns)",
			r.path, req.Task.ID, req.Sample, n+1, ErrNotRecorded, len(turns))
	}
	return Reply{Message: turns[n]}, nil
}

// replayRecord is a line of either file format.
type replayRecord struct {
	TaskID   string              `json:"task_id"`
	Index    json.RawMessage     `json:"index"`
	Teacher  schemas.TeacherInfo `json:"teacher"`
	Messages []replayMessage     `json:"messages"`
	// Trajectory holds the rollout in an eval results folder's line
	// (synth eval's and synth serve --record's results.jsonl).
	Trajectory *struct {
		Teacher  schemas.TeacherInfo `json:"teacher"`
		Messages []replayMessage     `json:"messages"`
	} `json:"trajectory"`
}

func (rec *replayRecord) index() string {
	s := strings.TrimSpace(string(rec.Index))
	if s == "" || s == "null" {
		return ""
	}
	var str string
	if json.Unmarshal(rec.Index, &str) == nil {
		return str
	}
	return s // a number, as written
}

func (rec *replayRecord) assistantTurns() []schemas.Message {
	var out []schemas.Message
	for _, m := range rec.Messages {
		if m.Role == schemas.RoleAssistant {
			out = append(out, m.message())
		}
	}
	return out
}

// replayMessage reads content as a string or a list of text parts, and tool
// calls in synth's flat form or OpenAI's nested one.
type replayMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Function  struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func (m replayMessage) message() schemas.Message {
	out := schemas.Message{Role: m.Role, Content: contentText(m.Content), ToolCallID: m.ToolCallID}
	for _, tc := range m.ToolCalls {
		c := schemas.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: argumentsText(tc.Arguments)}
		if c.Name == "" {
			c.Name, c.Arguments = tc.Function.Name, argumentsText(tc.Function.Arguments)
		}
		out.ToolCalls = append(out.ToolCalls, c)
	}
	return out
}

// argumentsText is a tool call's arguments as JSON text: OpenAI's JSON
// string as it is, and an object (the form chat templates take) as its
// JSON.
func argumentsText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return string(raw)
}

// DecodeMessage reads a chat message as OpenAI's API, a chat template or
// synth writes it: content a string or a list of text parts, tool calls
// flat ({id, name, arguments}) or nested ({id, type, function: {name,
// arguments}}), arguments a JSON string or an object.
func DecodeMessage(raw []byte) (schemas.Message, error) {
	var m replayMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return schemas.Message{}, err
	}
	return m.message(), nil
}

func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}
