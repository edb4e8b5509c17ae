package agent

import (
	"regexp"
	"strings"

	"synth/schemas"
)

// PyBench's message conventions.
const (
	uploadPrefix      = "[INFO]The data is uploaded to "
	observationPrefix = "[INFO]This is a Code Interpreter Message:\n"
	finishedMarker    = "Finished:"
)

// DefaultSystemPrompt asks for PyBench's turn format: Analyse, This Step
// Todo, Action with one fenced python block, and a final "Finished:" turn.
const DefaultSystemPrompt = `You are an agent that solves data and programming tasks by writing Python and running it in a code interpreter.
The interpreter keeps its state between turns. Input files are under ./data/; save every file you produce under ./output/.

Answer every turn in this format:
Analyse: what the last result tells you and what to do next
This Step Todo: the one subtask of this turn
Action:
` + "```python\n<code for this step>\n```" + `

After each turn you receive the output of your code. Do not call input(), plt.show() or cv2.waitKey(); save plots with plt.savefig() under ./output/ and print their path.
When the results fulfil the whole request, reply without code:
Finished: <the answer to the user, with the figures and file paths it asked for>`

// PyBench is the prompt format of PyBench and PyInstruct: code in a fenced
// python block, observations as user messages, and a final "Finished:" turn.
type PyBench struct{}

// NewPyBench returns the PyBench format.
func NewPyBench() Format { return PyBench{} }

// Name implements Format.
func (PyBench) Name() string { return "pybench" }

// Start implements Format: the system prompt, the upload notice (when the
// task has files), then the query.
func (PyBench) Start(task *schemas.Task, system string) []schemas.Message {
	if system == "" {
		system = DefaultSystemPrompt
	}
	msgs := []schemas.Message{{Role: schemas.RoleSystem, Content: system}}
	if len(task.Files) > 0 {
		msgs = append(msgs, schemas.Message{Role: schemas.RoleUser, Content: uploadPrefix + strings.Join(task.DataPaths(), ",")})
	}
	return append(msgs, schemas.Message{Role: schemas.RoleUser, Content: task.Query})
}

// fence matches a fenced code block; group 1 is the language tag, group 2
// the code. An unclosed fence at the end of a reply counts as closed.
var fence = regexp.MustCompile("(?s)```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\\r?\\n(.*?)(?:```|\\z)")

// Parse implements Format. The first python (or untagged) block is the
// turn's code; a turn with no code and a "Finished:" line is the final
// answer. A turn with both runs its code: the teacher sees the result
// before it may finish.
func (PyBench) Parse(msg schemas.Message) Action {
	if code, ok := pythonBlock(msg.Content); ok {
		return Action{Code: code}
	}
	if i := strings.Index(msg.Content, finishedMarker); i >= 0 {
		return Action{Finished: true, Answer: strings.TrimSpace(msg.Content[i+len(finishedMarker):])}
	}
	return Action{}
}

func pythonBlock(text string) (string, bool) {
	for _, m := range fence.FindAllStringSubmatch(text, -1) {
		switch strings.ToLower(m[1]) {
		case "python", "py", "python3", "":
			if code := strings.TrimRight(m[2], " \t\r\n"); strings.TrimSpace(code) != "" {
				return code, true
			}
		}
	}
	return "", false
}

// Observe implements Format: the output goes back as a user message.
func (PyBench) Observe(_ Action, observation string) []schemas.Message {
	return []schemas.Message{{Role: schemas.RoleUser, Content: observationPrefix + observation}}
}

// Render implements Format.
func (PyBench) Render(act Action, thought string) schemas.Message {
	var b strings.Builder
	if act.Finished || act.Code == "" {
		b.WriteString(finishedMarker + " " + act.Answer)
		return schemas.Message{Role: schemas.RoleAssistant, Content: strings.TrimRight(b.String(), " ")}
	}
	if thought == "" {
		thought = "Run the next step."
	}
	analyse, todo := splitThought(thought)
	b.WriteString("Analyse: " + analyse + "\n")
	b.WriteString("This Step Todo: " + todo + "\n")
	b.WriteString("Action:\n```python\n" + act.Code + "\n```")
	return schemas.Message{Role: schemas.RoleAssistant, Content: b.String()}
}

// Tools implements Format: PyBench has no tools field.
func (PyBench) Tools() *string { return nil }

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
