package agent

import (
	"fmt"
	"strings"

	"synth/sandbox"
	"synth/schemas"
)

// PyBench's harness (its inference.py and config/*.yaml), as the paper's
// models saw it. The texts below are PyBench's, byte for byte.
const (
	// pybenchCodeStart and pybenchCodeEnd are the code_start_token and
	// code_end_token of PyBench's configs.
	pybenchCodeStart = "```python"
	pybenchCodeEnd   = "```"
	// pybenchErrorIntro opens the observation of a cell that raised.
	pybenchErrorIntro = "There are some errors in the code. All variables in this cell should be redefined. Please Debug:\n"
)

// PyBench's system prompt variants: config/gpt.yaml's, and the one of
// config/llama3.yaml and your_model.yaml for local models, which asks for
// code between <|execute_start|> and <|execute_end|>.
const (
	PromptGPT   = "gpt"
	PromptLocal = "local"
)

// PyBenchGPTPrompt is the system_prompt_template of PyBench's config/gpt.yaml.
const PyBenchGPTPrompt = `You are an AI Agent who is proficient in solve complicated task. Each step, you should first think step by step according to user query and previous messages. The code you write will be appended to a notebook as a new cell. You will get the excution result of the cell
When you find you code is error, you last code is removed from the notebook, which means you should rewrite the whole cell(redefine all variables)

Each round, your answer should ALWAYS use the following format:


Analyse:(Analyse the message you received and plan what you should do)
This Step Todo: One Subtask need to be done at this step
Action:(The action to complete Todo,)
` + "```python\n<your code>\n```" + `

You will got the result of your code after each step. When the code of previous subtask is excuted successfully, you can write and excuet the code for next subtask
When all the code your write are executed and you got the code result that can fulfill the user query, you should summarize the previous analyse process and make a formal response to user, The response should follow this format:
WARNING:MAKE SURE YOU GET THE CODE EXECUTED RESULT THAT FULFILLED ALL REQUIREMENT OF USER BEFORE USE "Finished"
Finished: <Answer to user query>

Some notice:
1. When you want to draw a plot, use plt.save() and print the image path in markdown format instead of plt.show()
2. Save anything to ./output folder
3. End the process whenever you complete the task, When you do not have Action(Code), Use: Finished: <summary the analyse process and make response>
4. Do not ask for user input in your python code.
`

// PyBenchLocalPrompt is the system_prompt_template of PyBench's
// config/your_model.yaml, for local models (llama3.yaml adds a warning
// about cv2.waitKey to it).
const PyBenchLocalPrompt = `You are an AI Agent who is proficient in solve complicated task. 
Each step you should wirte executable code to fulfill user query. Any Response without code means the task is completed and you do not have another chance to submit code

You are equipped with a codeinterpreter. You can give the code and get the execution result of your code. You should use the codeinterpreter in the following format: 
<|execute_start|>
` + "```python  \n\n<your code>  \n\n``` " + `
<|execute_end|> 


Each round, your answer should ALWAYS use the following format(Each of your response should contain code, until you complete the task):


Analyse:(Analyse the message you received and plan what you should do)  

This Step Todo: One Subtask need to be done at this step  

Code(WARNING:MAKE SURE YOU CODE FOLLOW THE FORMAT AND WRITE CODE OR THE TASK WILL BE FAILED): 
<|execute_start|>
` + "```python  \n\n<your code>  \n\n\n```  " + `
<|execute_end|>


You will got the result of your code after each step. When the code of previous subtask is excuted successfully, you can write and excuet the code for next subtask
When all the code your write are executed and you got the code result that can fulfill the user query, you should summarize the previous analyse process and make a formal response to user, The response should follow this format:
WARNING:MAKE SURE YOU GET THE CODE EXECUTED RESULT THAT FULFILLED ALL REQUIREMENT OF USER BEFORE USE "Finished"
Finished: <Answer to user query>

Some notice:
1. When you want to draw a plot, use plt.savefig() and print the image path in markdown format instead of plt.show()
2. Save anything to ./output folder, use the file name similiar to input file name.
3. End the process whenever you complete the task, When you do not have Action(Code), Use: Finished: <summary the analyse process and make response>
4. Do not ask for user input in your python code.  
`

// PyBenchHarness is the conversation of PyBench's own harness, for scoring
// a model the way the paper did:
//   - the system prompt (GPT or local-model variant), then always the user
//     turn "[INFO]The data is uploaded to " with the task's paths joined by
//     commas (nothing after it for a task without files), then the query;
//   - the code of a reply is what lies between the first "```python" and
//     the next "```", stripped; a reply without it ends the rollout;
//   - the observation is the cell's output, and for a cell that raised,
//     instead of the traceback, PyBench's "There are some errors in the
//     code. …" text with the exception's class name and str().
//
// The loop's caller sets no nudge and the turn cap (10 in PyBench).
type PyBenchHarness struct {
	variant, prompt string
}

// NewPyBenchHarness returns PyBench's harness format with the system
// prompt variant PromptGPT (also for "") or PromptLocal.
func NewPyBenchHarness(variant string) (*PyBenchHarness, error) {
	switch variant {
	case "", PromptGPT:
		return &PyBenchHarness{variant: PromptGPT, prompt: PyBenchGPTPrompt}, nil
	case PromptLocal:
		return &PyBenchHarness{variant: PromptLocal, prompt: PyBenchLocalPrompt}, nil
	}
	return nil, fmt.Errorf("PyBench prompt %q is not known (want %s or %s)", variant, PromptGPT, PromptLocal)
}

// Name implements Format: pybench-harness, or pybench-harness-local with
// the local-model prompt.
func (h *PyBenchHarness) Name() string {
	if h.variant == PromptLocal {
		return "pybench-harness-local"
	}
	return "pybench-harness"
}

// Start implements Format: system prompt, upload notice, query, as
// PyBench's inference.py sends them.
func (h *PyBenchHarness) Start(task *schemas.Task, system string) []schemas.Message {
	if system == "" {
		system = h.prompt
	}
	return []schemas.Message{
		{Role: schemas.RoleSystem, Content: system},
		{Role: schemas.RoleUser, Content: uploadPrefix + strings.Join(task.DataPaths(), ",")},
		{Role: schemas.RoleUser, Content: task.Query},
	}
}

// Parse implements Format with PyBench's extract_code: a reply without a
// closed python block has no code, which ends the rollout; its "Finished:"
// text, if any, is the final answer.
func (*PyBenchHarness) Parse(msg schemas.Message) Action {
	if code := pybenchCode(msg.Content); code != "" {
		return Action{Code: code}
	}
	if i := strings.Index(msg.Content, finishedMarker); i >= 0 {
		return Action{Finished: true, Answer: strings.TrimSpace(msg.Content[i+len(finishedMarker):])}
	}
	return Action{}
}

// pybenchCode is PyBench's extract_code: the text between the first
// "```python" and the next "```", stripped; "" when either is missing.
func pybenchCode(s string) string {
	start := strings.Index(s, pybenchCodeStart)
	if start < 0 {
		return ""
	}
	start += len(pybenchCodeStart)
	end := strings.Index(s[start:], pybenchCodeEnd)
	if end < 0 {
		return ""
	}
	return strings.TrimSpace(s[start : start+end])
}

// Observe implements Format: PyBench's observation message.
func (*PyBenchHarness) Observe(_ Action, observation string) []schemas.Message {
	return []schemas.Message{{Role: schemas.RoleUser, Content: observationPrefix + observation}}
}

// Observation implements CellObserver: the cell's output, with a raised
// exception worded as PyBench's execute_code words it (no traceback).
func (*PyBenchHarness) Observation(res sandbox.Result) string {
	if res.Error == nil {
		return res.Output
	}
	out := strings.TrimSuffix(res.Output, res.Error.Traceback)
	return out + PyBenchError(res.Error.Name, res.Error.Value)
}

// PyBenchError is PyBench's text for a cell that raised ename(evalue).
func PyBenchError(ename, evalue string) string {
	return pybenchErrorIntro + "Error: " + ename + "\n" + evalue + "\n"
}

// Render implements Format, as PyBench's prompt asks replies to read.
func (*PyBenchHarness) Render(act Action, thought string) schemas.Message {
	return PyBench{}.Render(act, thought)
}

// Tools implements Format: PyBench's harness has no tools field.
func (*PyBenchHarness) Tools() *string { return nil }

// CellObserver is a Format that words an observation from the whole cell
// result rather than from its output text alone.
type CellObserver interface {
	Observation(res sandbox.Result) string
}
