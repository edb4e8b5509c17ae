package agent

import (
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// TestPyBenchHarnessParse pins PyBench's extract_code: the first
// "```python" up to the next "```", stripped; anything else is no code.
func TestPyBenchHarnessParse(t *testing.T) {
	h, err := NewPyBenchHarness("")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		reply string
		want  Action
	}{
		{"Action:\n```python\n x = 1 \n```\n```python\ny = 2\n```", Action{Code: "x = 1"}},
		{"```py\nx = 1\n```\nFinished: done", Action{Finished: true, Answer: "done"}},
		{"```python\nx = 1\n", Action{}},                                         // unclosed: no code, no answer
		{"```\nx = 1\n```", Action{}},                                            // untagged: not PyBench's code
		{"```python\n\n```\nFinished: 42", Action{Finished: true, Answer: "42"}}, // empty block
		{"I am not sure.", Action{}},
	}
	for _, c := range cases {
		if got := h.Parse(schemas.Message{Content: c.reply}); got != c.want {
			t.Errorf("Parse(%q) = %+v, want %+v", c.reply, got, c.want)
		}
	}
	if _, err := NewPyBenchHarness("llama"); err == nil {
		t.Error("an unknown prompt variant was accepted")
	}
}

// TestPyBenchHarnessObservation words a failed cell as PyBench's
// execute_code does: the output before the error, then its text.
func TestPyBenchHarnessObservation(t *testing.T) {
	h, _ := NewPyBenchHarness(PromptLocal)
	tb := "Traceback (most recent call last):\n  File \"<cell-1>\", line 2, in <module>\nKeyError: 'x'\n"
	res := sandbox.Result{Status: schemas.StatusError, Output: "partial\n" + tb, Error: &sandbox.CellError{Name: "KeyError", Value: "'x'", Traceback: tb}}
	want := "partial\nThere are some errors in the code. All variables in this cell should be redefined. Please Debug:\nError: KeyError\n'x'\n"
	if got := h.Observation(res); got != want {
		t.Errorf("observation\n got %q\nwant %q", got, want)
	}
	if got := h.Observation(sandbox.Result{Status: schemas.StatusOK, Output: "1\n"}); got != "1\n" {
		t.Errorf("ok cell: %q", got)
	}
	msgs := h.Start(&schemas.Task{Query: "q", Files: []schemas.TaskFile{{Name: "a.csv"}, {Name: "b.xlsx"}}}, "")
	if msgs[0].Content != PyBenchLocalPrompt || msgs[1].Content != "[INFO]The data is uploaded to ./data/a.csv,./data/b.xlsx" || msgs[2].Content != "q" {
		t.Errorf("start = %+v", msgs)
	}
}
