package writer

import (
	"fmt"
	"strings"

	"synth/schemas"
)

// promptVersion is part of every task id: a change of the prompts gives new
// tasks.
const promptVersion = "3"

const writerSystem = `You write tasks for a benchmark of code-interpreter agents. An agent gets an uploaded file and your query, writes Python that runs in a sandbox (pandas, numpy, matplotlib, PIL, scipy, sklearn; no network; input under ./data/, outputs under ./output/), and answers. Your checks decide automatically whether it succeeded, and your task is proven in the sandbox before it is used: your reference solution must pass every check; an agent that does nothing, copies the input or echoes the query must fail; your wrong solution must fail.
Write ONE task. Reply with a JSON object only, no prose, with these keys:
  "query": what a user asks, self-contained, concrete, solvable from this file alone; name every output file the agent must write (under ./output/)
  "category": one of data_analysis, text_analysis, image_audio, complex_math, software_web
  "subcategory": a short snake_case name
  "outputs": the output paths the query asks for, like ["output/cleaned.csv"] (may be empty)
  "checks": a list of checks, each an object with "kind" and only that kind's fields:
    {"kind":"answer", "contains_all":[..], "contains_any":[..], "regex":"..", "number":{"expr":"pd.read_csv('data/x.csv')['price'].mean()","rel_tol":1e-6}}  on the agent's final answer
    {"kind":"file", "path":"output/x.png", "exists":true, "min_bytes":100, "type":"png"}
    {"kind":"table", "path":"output/x.csv", "rows":{"expr":"len(pd.read_csv('data/x.csv').drop_duplicates())"}, "columns_include":["a"], "no_duplicates":true, "no_nulls":true, "no_iqr_outliers":["col"], "sorted_by":{"column":"a","descending":false}}
    {"kind":"image", "path":"output/x.png", "width":100, "height":50, "mode":"L", "compare":{"ref":"data/in.png","transform":"rotate90|flip_h|flip_v|grayscale|crop:x,y,w,h|resize:w,h","min_similarity":0.9}, "brighter_than":"data/in.png", "darker_than":"data/in.png", "sharper_than":"data/in.png"}
    {"kind":"audio", "path":"output/x.wav", "duration":{"min":1,"max":2}, "louder_than":"data/in.wav", "quieter_than":"data/in.wav", "shorter_than":"data/in.wav"}
    {"kind":"text", "path":"output/x.txt", "contains_all":[..], "regex":"..", "min_bytes":10}
    {"kind":"python", "code":"assert ..."}  (sees answer, messages and the workspace)
  "reference": {"steps":[{"thought":"..","code":".."}], "answer":".."}  a correct solution: Python that writes every output and prints every number the answer states
  "wrong_solution": {"steps":[{"thought":"..","code":".."}], "answer":".."}  a plausible mistake (other column, other aggregate, other sort order) that your checks must reject
Expected values are computed, never guessed: give a number or a row count as {"expr": "<one Python expression over data/, with pd and np>"}; it is evaluated on the input and frozen into the check. Never write an expected value as a literal: the task is proven again on a perturbed copy of the input (every third row dropped, float columns scaled by 1.5), where every expected value must follow the data and the original answer must fail. In python checks compare the answer only with values computed from data/, in plain asserts, never in an if or an or.
Checks must tell a right solution from a wrong one: no constant asserts, no regex that matches anything, tolerances far smaller than the value, no contains_any of common words, no checks that read only data/. Every output the query asks for needs a check on its content (rows, columns, sort order, pixels, text), not only that it exists.`

// userPrompt shows the model one file and the task type to write; the
// preview's text is clipped to budget characters.
func userPrompt(f schemas.File, tt TaskType, lang string, budget int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "File: ./data/%s (type %s, %d bytes)\n", f.Name, f.Type, f.Size)
	if f.Source.Title != "" {
		fmt.Fprintf(&b, "Title: %s\n", clip(f.Source.Title, 200))
	}
	b.WriteString(previewText(f.Preview, budget))
	fmt.Fprintf(&b, "\nTask type: %s / %s\nKeywords (the query must be about these): %s\n",
		tt.Category, tt.Subcategory, strings.Join(tt.Keywords, "; "))
	if len(tt.Requires) > 0 {
		fmt.Fprintf(&b, "The sandbox also has: %s\n", strings.Join(tt.Requires, ", "))
	}
	if lang == "zh" {
		b.WriteString("Write the query in Chinese (keep file paths and column names as they are).\n")
	} else {
		b.WriteString("Write the query in English.\n")
	}
	return b.String()
}

// previewText renders what the preview knows of the file.
func previewText(p *schemas.Preview, budget int) string {
	if p == nil {
		return "(no preview)\n"
	}
	var b strings.Builder
	if len(p.Columns) > 0 {
		cols := make([]string, len(p.Columns))
		for i, c := range p.Columns {
			cols[i] = c.Name + " (" + c.DType + ")"
		}
		fmt.Fprintf(&b, "Columns: %s\n", clip(strings.Join(cols, ", "), budget/2))
	}
	if p.Rows > 0 {
		fmt.Fprintf(&b, "Rows: %d\n", p.Rows)
	}
	if len(p.Sheets) > 0 {
		fmt.Fprintf(&b, "Sheets: %s\n", strings.Join(p.Sheets, ", "))
	}
	if p.Read != "" {
		// Where the table lies in the file (titles above, notes below, the
		// encoding and separator): reference code that reads it otherwise
		// reads something else.
		fmt.Fprintf(&b, "pandas reads the table as meant with: %s\n", p.Read)
	}
	if p.Head != "" {
		fmt.Fprintf(&b, "First rows:\n%s\n", clip(p.Head, budget))
	}
	if p.Text != "" {
		fmt.Fprintf(&b, "Start of the text:\n%s\n", clip(p.Text, budget))
	}
	if p.Pages > 0 {
		fmt.Fprintf(&b, "Pages: %d\n", p.Pages)
	}
	if p.Width > 0 {
		fmt.Fprintf(&b, "Image: %dx%d, mode %s", p.Width, p.Height, p.Mode)
		if p.Frames > 1 {
			fmt.Fprintf(&b, ", %d frames", p.Frames)
		}
		b.WriteString("\n")
	}
	if p.DurationS > 0 {
		fmt.Fprintf(&b, "Audio: %.2f s, %d Hz, %d channel(s)\n", p.DurationS, p.SampleRate, p.Channels)
	}
	return b.String()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "\n…"
}

const repairPrompt = "Your reply could not be used: %s\nReply with the corrected JSON object only."

// proofRepairPrompt shows the writer the reason and message of a failed
// proof.
const proofRepairPrompt = "The task failed its proof in the sandbox (%s): %s\nFix the task (query, checks, reference or wrong_solution) and reply with the corrected JSON object only."

const revisePrompt = "A reviewer found problems with this task: %s\nRevise it and reply with the corrected JSON object only."

const criticSystem = `You review tasks written for a benchmark of code-interpreter agents. Given the file, the keywords the task must be about, and the task (query and checks), decide:
1. keywords: does the query ask for what the keywords say?
2. content: is it solvable from this file's content as previewed (columns, text, image or audio exist as the query assumes)?
3. checks: do the checks test what the query asks, without values the file cannot support?
Reply with a JSON object only: {"ok": true} or {"ok": false, "problems": "what to fix"}.`

func criticPrompt(f schemas.File, tt TaskType, draft string, budget int) string {
	return fmt.Sprintf("File: ./data/%s (type %s)\n%s\nKeywords: %s\n\nTask:\n%s\n",
		f.Name, f.Type, previewText(f.Preview, budget), strings.Join(tt.Keywords, "; "), draft)
}
