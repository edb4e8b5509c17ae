package agent

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// seen is what the teacher has learned from the observations so far.
type seen struct {
	columns   []string // the table's columns, from the types or the column list
	numberCol string   // a text column whose name says it holds numbers
	wrong     string   // the misspelt column of the last mistake
	right     string
	mistake   moveKind // the last mistake made, 0 (moveStep) if none
	failed    bool     // the last observation was an error
}

// play walks the script over the observations (one per turn played) and
// returns the turn after them; false when the script is done and the
// teacher should finish.
func play(s *script, obs []string) (turn, bool) {
	var st seen
	k := 0
	last := ""
	var prev *move
	for i := range s.moves {
		m := &s.moves[i]
		t, ok := s.render(m, prev, &st, last)
		if !ok {
			continue
		}
		if k == len(obs) {
			return t, true
		}
		last = obs[k]
		k++
		prev = m
		st.learn(m, last)
	}
	return turn{}, false
}

var dtypeLine = regexp.MustCompile(`^(\S(?:.*\S)?)\s{2,}(int64|int32|float64|float32|object|bool|datetime64\[ns\]|category|string)$`)

var numberName = regexp.MustCompile(`(?i)amount|cost|price|rent|fare|salary|revenue|population|attendance|income|budget|usd|eur`)

// learn updates what the teacher knows after move m printed obs.
func (st *seen) learn(m *move, obs string) {
	st.failed = errorLine(obs) != ""
	switch m.kind {
	case moveDtypes:
		st.columns, st.numberCol = nil, ""
		for _, l := range strings.Split(obs, "\n") {
			if g := dtypeLine.FindStringSubmatch(strings.TrimRight(l, " ")); g != nil {
				st.columns = append(st.columns, g[1])
				if g[2] == "object" && st.numberCol == "" && numberName.MatchString(g[1]) {
					st.numberCol = g[1]
				}
			}
		}
	case moveColumns:
		if cols := pyStrings(obs); len(cols) > 0 {
			st.columns = cols
		}
	}
	if m.kind == moveBadPath || m.kind == moveBadColumn || m.kind == moveBadNumber || m.kind == moveNoFolder || m.kind == moveBadDate {
		st.mistake = m.kind
	}
}

// render writes move m as a turn given the move before it, or says it is
// skipped: a recovery when nothing failed, a mistake that needs a column
// the teacher has not seen. A column mistake records the names it used in
// st, for the turns that recover from it.
func (s *script) render(m *move, prev *move, st *seen, last string) (turn, bool) {
	after := s.describe(prev, st, last)
	switch m.kind {
	case moveStep, moveNoFolder:
		t := turn{code: m.code, todo: m.todo}
		switch {
		case prev == nil:
			t.analyse = s.opening()
		case prev.kind == moveListData:
			t.analyse = after + " The input is there, so I read it with the ./data/ prefix, as the upload notice said."
		case prev.kind == moveColumns && st.right != "":
			t.analyse = fmt.Sprintf("%s The column is called %q, not %q; I run the step again with the right name.", after, st.right, st.wrong)
		case prev.kind == moveDateLayouts:
			t.analyse = after + " The dates mix layouts, so no single format fits. I try each layout in turn (slashes month/day/year, dots day.month.year, as the request says) and check that no date is left unparsed."
		case prev.kind == moveFixNumber:
			t.analyse = after + " Good to know; now back to what the task asks."
		case m.part > 0:
			t.analyse = after + " " + s.pick(m.code, "With the numbers ready I can produce the output.", "The intermediate result looks right; now the output.", "That is what I need for the final step.")
		default:
			t.analyse = after + " " + s.pick(m.code, "Now the main step.", "Now I can do what the task asks.", "On to the actual computation.", "With that checked, I continue with the task.")
		}
		return t, true
	case moveMakeDir:
		t := turn{code: m.code, todo: m.todo}
		if st.failed && st.mistake == moveNoFolder {
			t.analyse = fmt.Sprintf("%s The folder %s does not exist yet, so nothing was saved. I create it and save again.", after, m.dir)
		} else {
			t.analyse = after + fmt.Sprintf(" I make sure %s exists before saving into it.", m.dir)
		}
		return t, true
	case moveBadDate:
		return turn{code: fmt.Sprintf("print(pd.to_datetime(%s[%s], format='%%Y-%%m-%%d').agg(['min', 'max']))", m.df, m.col),
			todo:    fmt.Sprintf("Parse %s as dates and check their range.", m.col),
			analyse: fmt.Sprintf("%s %s holds dates stored as text; I try the ISO format %%Y-%%m-%%d first.", after, m.col)}, true
	case moveDateLayouts:
		if !st.failed || st.mistake != moveBadDate {
			return turn{}, false
		}
		return turn{code: fmt.Sprintf("print(%s[%s].astype(str).str.strip().str.replace(r'[0-9]', '9', regex=True).str.replace(r'[A-Za-z]+', 'Mon', regex=True).value_counts())", m.df, m.col),
			todo:    fmt.Sprintf("Count the layouts the %s values are written in.", m.col),
			analyse: after + fmt.Sprintf(" Not every value of %s is an ISO date. I replace each digit by 9 and each month name by Mon to see which layouts occur.", m.col)}, true
	case moveDtypes:
		return turn{code: "print(" + m.df + ".dtypes)", todo: "Check the type of each column.",
			analyse: after + " Before computing anything I want to know which columns pandas read as numbers and which as text."}, true
	case moveBadPath:
		return turn{code: m.code, todo: "Load the input file and look at it.", analyse: s.opening()}, true
	case moveListData:
		if !st.failed {
			return turn{}, false
		}
		return turn{code: "import os\nprint(os.listdir('./data'))", todo: "List the files in ./data to find the input.",
			analyse: after + " The file is not in the working folder. The upload notice named ./data/, so I look there."}, true
	case moveBadColumn:
		bad, wrong, right := badColumn(m.code, st.columns)
		if bad == "" {
			return turn{}, false
		}
		st.wrong, st.right = wrong, right
		return turn{code: bad, todo: firstTodo(s, m.code),
			analyse: after + " " + s.pick(m.code, "Now the main step.", "Now I can do what the task asks.", "On to the actual computation.")}, true
	case moveColumns:
		if !st.failed || st.mistake != moveBadColumn {
			return turn{}, false
		}
		return turn{code: "print(" + m.df + ".columns.tolist())", todo: "List the exact column names.",
			analyse: after + fmt.Sprintf(" There is no column named %q; I print the column names to find the right spelling.", st.wrong)}, true
	case moveBadNumber:
		if st.numberCol == "" {
			return turn{}, false
		}
		return turn{code: fmt.Sprintf("print(%s[%s].astype(float).mean())", m.df, pyQuote(st.numberCol)),
			todo:    fmt.Sprintf("Convert %s to numbers and check its mean.", st.numberCol),
			analyse: fmt.Sprintf("%s %q is stored as text (object) although its name says it holds numbers; I try converting it.", after, st.numberCol)}, true
	case moveFixNumber:
		if !st.failed || st.mistake != moveBadNumber {
			return turn{}, false
		}
		v := numVar(st.numberCol)
		return turn{
			code: fmt.Sprintf("%s = pd.to_numeric(%s[%s].astype(str).str.replace(',', '', regex=False).str.replace('$', '', regex=False).str.strip(), errors='coerce')\nprint(%s.describe())",
				v, m.df, pyQuote(st.numberCol), v),
			todo:    fmt.Sprintf("Parse %s as numbers after removing the separators.", st.numberCol),
			analyse: after + " The values carry thousands separators or a currency sign, so a plain conversion fails. I strip them first and let pandas turn what is left into numbers."}, true
	}
	return turn{}, false
}

// firstTodo is the todo of the step whose code is given.
func firstTodo(s *script, code string) string {
	for _, st := range s.task.Reference.Steps {
		if st.Code == code {
			return stepTodo(st)
		}
	}
	return "Run the next step."
}

// opening is the first turn's analysis: the request and the input.
func (s *script) opening() string {
	q := clip(strings.Join(strings.Fields(s.task.Query), " "), 110)
	if len(s.task.Files) == 0 {
		return fmt.Sprintf("The request: %q. It needs no input file, so I can work on it directly.", q)
	}
	var names []string
	for _, f := range s.task.Files {
		names = append(names, f.Name+" ("+f.Type+")")
	}
	return fmt.Sprintf("The request: %q. The input is %s; before anything else I read it and see what it holds.", q, strings.Join(names, " and "))
}

var (
	shapeLine = regexp.MustCompile(`(?m)^\((\d+), (\d+)\)\s*$`)
	imageLine = regexp.MustCompile(`(?m)^\((\d+), (\d+)\) (\w+)\s*$`)
	waveLine  = regexp.MustCompile(`nchannels=(\d+), sampwidth=\d+, framerate=(\d+), nframes=(\d+)`)
	statLine  = regexp.MustCompile(`(?m)^(count|mean)\s+(-?[\d.]+(?:e[+-]?\d+)?)\s*$`)
)

// describe says, in a sentence or two, what the last observation showed:
// the error, the table's size and types, an image's size, a sound's
// format, or the first line printed.
func (s *script) describe(prev *move, st *seen, obs string) string {
	if prev == nil {
		return ""
	}
	if e := errorLine(obs); e != "" {
		return fmt.Sprintf("The cell failed with `%s`.", clip(e, 140))
	}
	obs = strings.TrimSpace(obs)
	switch {
	case obs == "":
		return "The cell ran without printing anything."
	case prev.kind == moveDtypes && len(st.columns) > 0:
		var num, text []string
		for _, l := range strings.Split(obs, "\n") {
			if g := dtypeLine.FindStringSubmatch(strings.TrimRight(l, " ")); g != nil {
				if g[2] == "object" || g[2] == "string" || g[2] == "category" {
					text = append(text, g[1])
				} else {
					num = append(num, g[1])
				}
			}
		}
		return fmt.Sprintf("Of the %d columns, %d are numeric (%s) and %d are text (%s).", len(st.columns), len(num), list(num, 5), len(text), list(text, 5))
	case prev.kind == moveDateLayouts:
		var ls []string
		for _, l := range strings.Split(obs, "\n") {
			if g := layoutLine.FindStringSubmatch(strings.TrimSpace(l)); g != nil && strings.Contains(g[1], "9") {
				ls = append(ls, fmt.Sprintf("%s (%s)", g[1], g[2]))
			}
		}
		return fmt.Sprintf("The values come in %d layouts: %s.", len(ls), list(ls, 6))
	case prev.kind == moveListData || prev.kind == moveColumns:
		items := pyStrings(obs)
		return fmt.Sprintf("It lists %d names: %s.", len(items), list(items, 8))
	}
	if m := imageLine.FindStringSubmatch(obs); m != nil {
		return fmt.Sprintf("The image is %s×%s pixels in mode %s.", m[1], m[2], m[3])
	}
	if m := waveLine.FindStringSubmatch(obs); m != nil {
		frames, _ := strconv.Atoi(m[3])
		rate, _ := strconv.Atoi(m[2])
		secs := 0.0
		if rate > 0 {
			secs = float64(frames) / float64(rate)
		}
		return fmt.Sprintf("The WAV has %s channel(s) at %s Hz: %d frames, about %.1f seconds.", m[1], m[2], frames, secs)
	}
	if m := shapeLine.FindStringSubmatch(obs); m != nil {
		return fmt.Sprintf("The table has %s rows and %s columns; the first rows look consistent with the request.", m[1], m[2])
	}
	if ms := statLine.FindAllStringSubmatch(obs, -1); len(ms) >= 2 {
		return fmt.Sprintf("After parsing, %s values remain with a mean of %s.", trimFloat(ms[0][2]), trimFloat(ms[1][2]))
	}
	lines := strings.Split(obs, "\n")
	first := clip(strings.TrimSpace(lines[0]), 90)
	if len(lines) == 1 {
		return fmt.Sprintf("It printed `%s`.", first)
	}
	return fmt.Sprintf("It printed %d lines, starting with `%s`.", len(lines), first)
}

// errorLine is the last line of a Python traceback in obs, or "".
func errorLine(obs string) string {
	if !strings.Contains(obs, "Traceback (most recent call last)") && !strings.Contains(obs, "Error: ") {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(obs), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if k := strings.Index(l, ": "); k > 0 && (strings.HasSuffix(l[:k], "Error") || strings.HasSuffix(l[:k], "Exception")) && !strings.Contains(l[:k], " ") {
			return l
		}
	}
	return ""
}

// layoutLine is a line of value_counts over date layouts: "99/99/9999    41".
var layoutLine = regexp.MustCompile(`^([9Mon][9Mon ,./-]*[9n])\s{2,}(\d+)$`)

var pyStr = regexp.MustCompile(`'([^']*)'|"([^"]*)"`)

// pyStrings are the string literals of a printed Python list.
func pyStrings(obs string) []string {
	var out []string
	for _, m := range pyStr.FindAllStringSubmatch(obs, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

func list(xs []string, n int) string {
	if len(xs) == 0 {
		return "none"
	}
	if len(xs) > n {
		return strings.Join(xs[:n], ", ") + ", …"
	}
	return strings.Join(xs, ", ")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func trimFloat(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// numVar is a fresh variable name for a parsed column.
func numVar(col string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(col) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	v := strings.Trim(b.String(), "_")
	if v == "" || (v[0] >= '0' && v[0] <= '9') {
		v = "col_" + v
	}
	return v + "_parsed"
}

// pick chooses a phrasing by the script's seed and a key.
func (s *script) pick(key string, options ...string) string {
	h := s.seed
	for i := 0; i < len(key); i++ {
		h = (h ^ uint64(key[i])) * 1099511628211
	}
	return options[h%uint64(len(options))]
}
