package dataset

import (
	"bytes"
	"fmt"
	"path/filepath"
	"time"

	"synth/rundir"
	"synth/schemas"
)

func writeCardBody(w *bytes.Buffer, info CardInfo) error {
	fmt.Fprintf(w, "# %s\n\n", info.Title)
	if info.Description != "" {
		fmt.Fprintf(w, "%s\n\n", info.Description)
	}
	solver := "a teacher model that writes Python in ReAct turns"
	if info.Teacher.Kind == "reference" {
		solver = "synth's scripted offline teacher (not a language model; see Teacher below), which writes Python in ReAct turns"
	}
	fmt.Fprintf(w, "Multi-turn code-interpreter trajectories: a task over input files, solved by %s, run in a sandboxed interpreter and verified by unit tests. %d rows, written by synth.\n\n", solver, info.Rows)

	glob := filepath.ToSlash(filepath.Join(info.DataDir, "train-*.parquet"))
	fmt.Fprintf(w, "## Load\n\n```python\nfrom datasets import load_dataset\nds = load_dataset(\"parquet\", data_files=%q, split=\"train\")\n```\n\n", glob)
	fmt.Fprintf(w, "```sql\nSELECT category, count(*) FROM read_parquet('%s') GROUP BY category;  -- DuckDB\n```\n\n", glob)

	writeColumns(w, info.Config.Format)
	writeStatsTable(w, &info.Stats)
	writeTasks(w, info.Tasks)
	if info.Funnel != nil {
		w.WriteString("## Filtering\n\nEvery rollout passes these stages in order; `in - out` were dropped, for the reasons given. Infrastructure failures (sandbox crash, teacher error) are retried and never counted as task failures. Each dropped item and what it matched is in the run's drop log.\n\n")
		if err := info.Funnel.WriteMarkdown(w); err != nil {
			return err
		}
		w.WriteString("\n")
	}
	writeHygiene(w, info.Hygiene)
	writeCost(w, info)
	writeTeacher(w, info.Teacher)
	writePython(w, info.Python)
	writeSources(w, info.Sources)
	w.WriteString(prefixPlaceholder)
	w.WriteString("## Provenance\n\n")
	if info.SynthVersion != "" {
		fmt.Fprintf(w, "- synth version: `%s`\n", info.SynthVersion)
	}
	if info.ConfigHash != "" {
		fmt.Fprintf(w, "- config hash: `%s` (the same config and inputs give the same task and trajectory ids)\n", info.ConfigHash)
	}
	fmt.Fprintf(w, "- created: %s\n", info.Created.UTC().Format(time.RFC3339))
	fmt.Fprintf(w, "- statistics as JSON: `%s`\n", rundir.DatasetStats)
	return nil
}

func writeColumns(w *bytes.Buffer, format string) {
	w.WriteString("## Columns\n\n")
	w.WriteString("The first three columns are PyInstruct's.\n\n| column | type | meaning |\n|---|---|---|\n")
	if format == FormatOpenAITools {
		w.WriteString("| `messages` | list of {role, content, tool_calls, tool_call_id, name} | the conversation with tool calls: the assistant calls `execute_python` (`tool_calls`: a list of {id, type: \"function\", function: {name, arguments}}), and each call's output is a `tool` message whose `tool_call_id` is the call's id and whose `name` is the tool's; `tool_calls` is empty and `tool_call_id` and `name` null where they do not apply. `arguments` is an object, {code: the Python the call ran}, not OpenAI's JSON text: transformers' chat templates and TRL take it so (see below) |\n")
		w.WriteString("| `tools` | list of {type, function: {name, description, parameters}} | the tool definitions the teacher saw, as JSON schemas (`parameters` is {type, properties: {code: {type, description}}, required}) |\n")
	} else {
		w.WriteString("| `messages` | list of {role, content} | the conversation in PyBench's format: system prompt, `[INFO]` upload message, query, then assistant turns (Analyse / This Step Todo / Action with a python block), each answered by a `user` turn `[INFO]This is a Code Interpreter Message:` with the cell's output; the last assistant turn starts with `Finished:` |\n")
		w.WriteString("| `tools` | string | null (the pybench format uses no tools) |\n")
	}
	w.WriteString(`| ` + "`tool_choices`" + ` | string | "auto" |
| ` + "`id`" + ` | string | trajectory id (a hash of its inputs) |
| ` + "`task_id`" + ` | string | task id |
| ` + "`category`" + `, ` + "`subcategory`" + ` | string | PyBench's task category and subgroup |
| ` + "`file_types`" + ` | list of string | types of the input files, by content |
| ` + "`teacher`" + ` | string | kind:model of the teacher |
| ` + "`turns`" + ` | int32 | assistant turns |
| ` + "`tokens`" + ` | int64 | the teacher's usage (prompt + completion, summed over turns), or an offline o200k_base count of the messages when it reported none |
| ` + "`passed`" + ` | bool | the task's unit tests passed |
| ` + "`verdict_class`" + ` | string | how the verdict was reached: ` + "`verified`" + ` (passed on its first verification), ` + "`retried`" + ` (passed after an infrastructure failure was retried), ` + "`judged`" + ` (an LLM judge took part; synth's own checks use none, so its builds write no such row) |

`)
	if format == FormatOpenAITools {
		w.WriteString(toolsUsage)
	}
}

// toolsUsage says how the openai-tools rows go to a chat template: in the
// shape of transformers' tool-use guide and TRL's tool-calling dataset
// format (arguments a dict, tools a list of JSON schemas).
const toolsUsage = "The rows are in the shape transformers' chat templates take for tool use (https://huggingface.co/docs/transformers/chat_extras: a call's `arguments` is a dict, not OpenAI's JSON string) and TRL's tool-calling dataset format (https://huggingface.co/docs/trl/dataset_formats: a `tools` column of JSON schemas, `tool` messages with a `name`):\n\n" +
	"```python\nrow = ds[0]\ntext = tokenizer.apply_chat_template(row[\"messages\"], tools=row[\"tools\"], tokenize=False)\n```\n\n" +
	"For an API that wants OpenAI's JSON text, serialise each call's `arguments` (`json.dumps`).\n\n"

func writeStatsTable(w *bytes.Buffer, s *Stats) {
	w.WriteString("## Statistics\n\nTurns are assistant turns; tokens per the `tokens` column.\n\n")
	w.WriteString(StatsMarkdown(s))
	w.WriteString("\n")
	if len(s.VerdictClasses) > 0 {
		w.WriteString("Rows by verdict class (column `verdict_class`):")
		sep := " "
		for _, c := range schemas.VerdictClasses {
			fmt.Fprintf(w, "%s%s %d", sep, c, s.VerdictClasses[c])
			sep = ", "
		}
		w.WriteString(".\n\n")
	}
}

// StatsMarkdown renders stats as the PyBench paper's data table: one row per
// category and a total.
func StatsMarkdown(s *Stats) string {
	var b bytes.Buffer
	b.WriteString("| category | trajectories | turns <=3 | 4-6 | 7-9 | >=10 | avg turns | avg tokens | pass rate |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, t *Tally) {
		rate := "–"
		if t.PassRate != nil {
			rate = fmt.Sprintf("%.1f%%", 100**t.PassRate)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %.1f | %.0f | %s |\n", name, t.Trajectories,
			t.Turns.UpTo3, t.Turns.From4, t.Turns.From7, t.Turns.From10, t.AvgTurns, t.AvgTokens, rate)
	}
	for i := range s.Categories {
		c := &s.Categories[i]
		name := c.Category
		if name == "" {
			name = "(none)"
		}
		row(mdCell(name), &c.Tally)
	}
	row("**total**", &s.Tally)
	return b.String()
}

func writeTeacher(w *bytes.Buffer, t TeacherCard) {
	if t.Kind == "" {
		return
	}
	w.WriteString("## Teacher\n\n")
	fmt.Fprintf(w, "- kind: `%s`\n", t.Kind)
	if t.Model != "" {
		fmt.Fprintf(w, "- model: `%s`\n", t.Model)
	}
	if t.Endpoint != "" {
		fmt.Fprintf(w, "- endpoint: `%s`\n", t.Endpoint)
	}
	if t.Format != "" {
		fmt.Fprintf(w, "- format: `%s`\n", t.Format)
	}
	for _, k := range sortedKeys(t.Settings) {
		fmt.Fprintf(w, "- %s: `%v`\n", k, t.Settings[k])
	}
	w.WriteString("\n")
	if t.Kind == "reference" {
		w.WriteString(scriptedTeacherNote)
	}
}

// scriptedTeacherNote says what the reference teacher is and is not.
const scriptedTeacherNote = `**This is a scripted teacher, not a model.** The ` + "`reference`" + ` teacher plays each task's
reference solution, written with the task by a template, the way an agent works: it reads the
input and its column types first, splits long steps, sometimes makes a mistake from a fixed list
(a path without ./data/, a misspelt column, text that holds numbers converted as is, dates of
mixed layouts parsed as ISO, a save into a folder of output/ it has not created) and recovers
from it, and writes each turn's Analyse from the output it has just seen. Every cell really ran in
the sandbox and every row passed its checks. But the reasoning follows templates, the mistakes are
scripted, and every task has the one solution its template wrote. These rows are for checking the
pipeline and as seed data.

A real teacher (` + "`--teacher openai`" + ` with a model) adds what a script cannot: reasoning about the task
at hand, varied approaches and code, mistakes and recoveries of its own, tasks it fails (which the
filters drop), and tasks written by a model rather than templates (` + "`--query-writer llm`" + `).

`

func writePython(w *bytes.Buffer, p PythonInfo) {
	if p.Version == "" && len(p.Packages) == 0 {
		return
	}
	w.WriteString("## Sandbox\n\n")
	switch {
	case p.Lock != "":
		fmt.Fprintf(w, "The task code ran in synth's locked Python environment `%s` (synth's `pyenv/sandbox.lock`, every package pinned by hash; environment fingerprint `%s`).\n\n", p.Lock, p.Fingerprint)
	case p.Fingerprint != "":
		fmt.Fprintf(w, "The task code ran in an interpreter other than synth's locked environment (environment fingerprint `%s`).\n\n", p.Fingerprint)
	}
	if p.Version != "" {
		fmt.Fprintf(w, "Python %s", p.Version)
	}
	if len(p.Packages) > 0 {
		w.WriteString(" with:\n\n| package | version |\n|---|---|\n")
		for _, k := range sortedKeys(p.Packages) {
			fmt.Fprintf(w, "| %s | %s |\n", mdCell(k), mdCell(p.Packages[k]))
		}
		w.WriteString("\n")
		return
	}
	w.WriteString(".\n\n")
}

func writeSources(w *bytes.Buffer, src []SourceCount) {
	if len(src) == 0 {
		return
	}
	w.WriteString("## Input files\n\nThe license of each input file is in the run's `" + rundir.Files + "`.\n\n| source | license | files |\n|---|---|---:|\n")
	for _, s := range src {
		lic := s.License
		if lic == "" {
			lic = "unknown"
		}
		fmt.Fprintf(w, "| %s | %s | %d |\n", mdCell(s.Kind), mdCell(lic), s.Files)
	}
	w.WriteString("\n")
}
