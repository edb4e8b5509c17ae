package agent_test

import (
	"context"
	"strings"
	"testing"

	"synth/agent"
	"synth/llm/llmtest"
	"synth/schemas"
)

// TestTruncatedReply: a reply the server cut off at its token limit
// (finish_reason "length") ends the rollout as truncated; its code is not
// run, and a cut-off answer is not taken as final.
func TestTruncatedReply(t *testing.T) {
	pb := llmtest.PyBench
	cut := pb("Count.", "Count rows.", "print(3)")
	cut = cut[:strings.LastIndex(cut, "print(3)")+len("print(")] // no closing fence
	tests := []struct {
		name   string
		format agent.Format
		turns  []llmtest.Reply
		cells  int
	}{
		{"pybench block without its fence", agent.NewPyBench(), []llmtest.Reply{
			{Content: pb("Load.", "Load.", "print('loaded')")}, llmtest.CutOff(cut)}, 1},
		{"pybench answer", agent.NewPyBench(), []llmtest.Reply{llmtest.CutOff("Finished: The file has")}, 0},
		{"tools answer", agent.NewToolsFormat(), []llmtest.Reply{llmtest.ToolReply("print(3)"), llmtest.CutOff("The file has")}, 1},
		{"tools call", agent.NewToolsFormat(), []llmtest.Reply{func() llmtest.Reply {
			r := llmtest.ToolReply("print(1)\nfor i in range(")
			r.FinishReason = "length"
			return r
		}()}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Conversation(tc.turns...))
			teacher := agent.NewOpenAI(client(t, srv, nil), agent.Config{Format: tc.format.Name(), Temperature: zero()})
			sb := &cellSandbox{}
			tr, err := agent.Run(context.Background(), teacher, tc.format, sb, task, agent.Options{ID: "r"})
			if err != nil {
				t.Fatal(err)
			}
			if tr.StopReason != schemas.StopTruncated || tr.FinalAnswer != "" || !strings.Contains(tr.Error, "cut off") {
				t.Errorf("stop %q, answer %q, error %q; want truncated with no answer", tr.StopReason, tr.FinalAnswer, tr.Error)
			}
			if len(sb.cells) != tc.cells || len(tr.Steps) != tc.cells {
				t.Errorf("ran %d cells (%d steps), want %d: %q", len(sb.cells), len(tr.Steps), tc.cells, sb.cells)
			}
			if last := tr.Messages[len(tr.Messages)-1]; last.Role != schemas.RoleAssistant {
				t.Errorf("the cut-off reply is not recorded: last message %+v", last)
			}
		})
	}
}

// TestContextOverflowEndsRollout: each engine's context-overflow reply
// ends the rollout as context_length, and the client stays usable: the
// run goes on.
func TestContextOverflowEndsRollout(t *testing.T) {
	for _, o := range llmtest.Overflows {
		t.Run(o.Engine, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Conversation(llmtest.Reply{Content: llmtest.PyBench("Load.", "Load.", "print(1)")}, o.Reply()))
			c := client(t, srv, nil)
			tr, err := agent.Run(context.Background(), agent.NewOpenAI(c, agent.Config{Temperature: zero()}), agent.NewPyBench(), &cellSandbox{}, task, agent.Options{ID: "r"})
			if err != nil {
				t.Fatal(err)
			}
			if tr.StopReason != schemas.StopContextLength || c.Err() != nil {
				t.Errorf("stop %q (%s), client stopped: %v; want context_length and a usable client", tr.StopReason, tr.Error, c.Err())
			}
		})
	}
}
