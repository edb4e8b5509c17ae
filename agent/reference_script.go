package agent

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"regexp"
	"strings"

	"synth/schemas"
)

// A script is the list of moves the reference teacher may make for one
// task and sample. Some moves depend on what the teacher has seen: a
// mistake needs a column name from an observation, a recovery is made only
// after an error. play walks the moves over the observations so far and
// returns the next turn.

type moveKind int

const (
	moveStep        moveKind = iota // run (part of) a reference step
	moveDtypes                      // print the table's column types
	moveBadPath                     // read the input without ./data/: FileNotFoundError
	moveListData                    // after an error: list ./data
	moveBadColumn                   // a reference statement with a misspelt column: KeyError
	moveColumns                     // after an error: print the column names
	moveBadNumber                   // convert a text column holding numbers: ValueError
	moveFixNumber                   // after an error: strip separators, then convert
	moveNoFolder                    // a step saving into a folder of output/ it has not created: FileNotFoundError
	moveMakeDir                     // after moveNoFolder: create the folder, then the rest of the step
	moveBadDate                     // parse a date column of mixed layouts as ISO only: ValueError
	moveDateLayouts                 // after an error: count the layouts of the dates
)

type move struct {
	kind moveKind
	code string // moveStep: the code; others: the statement to get wrong
	todo string // moveStep: what the step does
	df   string // the DataFrame variable, for table moves
	part int    // moveStep: 0 for a step's first part
	of   int    // moveStep: the parts of its step
	dir  string // moveNoFolder, moveMakeDir: the folder the step saves into
	col  string // moveBadDate, moveDateLayouts: the date column, as a Python string
	orig *move  // moveMakeDir: the move the folder pair replaced
}

// turn is one code turn the teacher writes.
type turn struct {
	code, analyse, todo string
}

type script struct {
	task  *schemas.Task
	moves []move
	seed  uint64
}

var readVar = regexp.MustCompile(`(?m)^(\w+) = pd\.read_\w+\(`)

// newScript plans the moves for a task and sample: the reference steps
// (long ones in parts), a look at the column types of a table, and at most
// one mistake, chosen by a hash of the task id and the sample.
func newScript(task *schemas.Task, sample, budget int) *script {
	h := sha256.Sum256([]byte(fmt.Sprintf("reference\x00%s\x00%d", task.ID, sample)))
	s := &script{task: task, seed: binary.LittleEndian.Uint64(h[:8])}
	roll := func(i int) int { return int(h[8+i]) % 100 } // independent dice, 0..99
	steps := task.Reference.Steps
	df := ""
	if len(steps) > 0 {
		if m := readVar.FindStringSubmatch(steps[0].Code); m != nil {
			df = m[1]
		}
	}
	var parts [][]move
	for _, st := range steps {
		parts = append(parts, stepMoves(st, roll(0) < 70))
	}
	if roll(3) < 60 {
		parts = forgetFolder(parts)
	}
	var ms []move
	mistake := roll(1)
	dateCol := ""
	if df != "" && mistake >= 14 && mistake < 80 {
		dateCol = mixedDateColumn(steps, df)
	}
	for i, p := range parts {
		if i == 0 && len(task.Files) > 0 && mistake < 14 {
			if bad := firstLoad(steps[0].Code); bad != "" {
				ms = append(ms, move{kind: moveBadPath, code: bad}, move{kind: moveListData})
			}
		}
		if i == 1 && df != "" && dateCol == "" && mistake >= 14 && mistake < 52 {
			ms = append(ms, move{kind: moveBadColumn, code: steps[1].Code, df: df}, move{kind: moveColumns, df: df})
		}
		ms = append(ms, p...)
		if i == 0 && df != "" && roll(2) < 80 {
			ms = append(ms, move{kind: moveDtypes, df: df})
			if dateCol == "" && mistake >= 52 && mistake < 70 {
				ms = append(ms, move{kind: moveBadNumber, df: df}, move{kind: moveFixNumber, df: df})
			}
		}
		if i == 0 && dateCol != "" {
			ms = append(ms, move{kind: moveBadDate, df: df, col: dateCol}, move{kind: moveDateLayouts, df: df, col: dateCol})
		}
	}
	s.moves = fit(ms, steps, budget)
	return s
}

// fit drops optional moves until the script has at most budget moves:
// first the number probe, then the column mistake, the look at types, the
// path mistake, and last the step parts (whole steps again).
func fit(ms []move, steps []schemas.RefStep, budget int) []move {
	drop := func(kinds ...moveKind) {
		var out []move
		for _, m := range ms {
			keep := true
			for _, k := range kinds {
				keep = keep && m.kind != k
			}
			if keep {
				out = append(out, m)
			}
		}
		ms = out
	}
	for _, kinds := range [][]moveKind{{moveBadNumber, moveFixNumber}, {moveBadDate, moveDateLayouts}, {moveNoFolder}, {moveBadColumn, moveColumns}, {moveDtypes}, {moveBadPath, moveListData}} {
		if len(ms) <= budget {
			return ms
		}
		drop(kinds...)
		if kinds[0] == moveNoFolder {
			for i := range ms {
				if ms[i].kind == moveMakeDir {
					ms[i] = *ms[i].orig
				}
			}
		}
	}
	if len(ms) <= budget {
		return ms
	}
	var whole []move
	for _, st := range steps {
		whole = append(whole, move{kind: moveStep, code: st.Code, todo: stepTodo(st), of: 1})
	}
	return whole
}

// stepMoves returns a step as one move, or, when split is set and the step
// computes something before plotting or saving it, as two: the computation
// (printing its result) and the rest. Both parts run the step's
// statements in order, so the interpreter ends in the same state.
func stepMoves(st schemas.RefStep, split bool) []move {
	whole := []move{{kind: moveStep, code: st.Code, todo: stepTodo(st), of: 1}}
	if !split {
		return whole
	}
	stmts, ok := statements(st.Code)
	if !ok || len(stmts) < 4 {
		return whole
	}
	at := -1
	for i, s := range stmts {
		if isOutputStart(s) {
			at = i
			break
		}
	}
	if at > 0 && stmts[at-1] == "import os" {
		at-- // the import goes with the saving it serves
	}
	if at < 1 {
		return whole
	}
	last := ""
	for _, s := range stmts[:at] {
		if v := assigned(s); v != "" {
			last = v
		}
	}
	if last == "" {
		return whole
	}
	first := strings.Join(stmts[:at], "\n") + "\nprint(" + last + ")"
	rest := strings.Join(stmts[at:], "\n")
	return []move{
		{kind: moveStep, code: first, todo: stepTodo(st), of: 2},
		{kind: moveStep, code: rest, todo: outputTodo(rest), part: 1, of: 2},
	}
}

var assignRe = regexp.MustCompile(`^([A-Za-z_]\w*)\s*=[^=]`)

// assigned is the variable a simple assignment statement binds, or "".
func assigned(stmt string) string {
	if strings.Contains(stmt, "\n") {
		return ""
	}
	if m := assignRe.FindStringSubmatch(stmt); m != nil {
		return m[1]
	}
	return ""
}

// isOutputStart reports whether a statement begins drawing or saving.
func isOutputStart(s string) bool {
	for _, p := range []string{"fig, ax = plt.subplots", "fig = plt.figure", "plt.figure(", "os.makedirs('./output'", "os.makedirs(\"./output\""} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

var savePath = regexp.MustCompile(`['"](\./output/[^'"]+\.\w+)['"]`)

// outputTodo says what the second part of a split step does.
func outputTodo(code string) string {
	path := ""
	if m := savePath.FindStringSubmatch(code); m != nil {
		path = " to " + m[1]
	}
	if strings.Contains(code, "savefig") {
		return "Draw the chart and save it" + path + "."
	}
	return "Save the result" + path + "."
}

// stepTodo is a step's thought as one line.
func stepTodo(st schemas.RefStep) string {
	t := firstLine(st.Thought)
	if t == "" {
		return "Run the next step."
	}
	return t
}

var dataPath = regexp.MustCompile(`(["'])\./data/([^"']+)(["'])`)

// firstLoad returns the imports and the first statement of the first step
// with ./data/ left out of its path, if that statement reads the input: it
// fails before binding anything, so the real step can follow unchanged.
func firstLoad(code string) string {
	stmts, ok := statements(code)
	if !ok {
		return ""
	}
	var imports []string
	for _, s := range stmts {
		if strings.HasPrefix(s, "import ") || strings.HasPrefix(s, "from ") {
			imports = append(imports, s)
			continue
		}
		head := firstLine(s)
		if !dataPath.MatchString(head) || (strings.Contains(s, "\n") && !strings.HasPrefix(s, "with ")) {
			return ""
		}
		bad := dataPath.ReplaceAllString(head, "$1$2$3")
		if strings.HasPrefix(s, "with ") {
			bad = strings.TrimSuffix(strings.TrimSpace(bad), ":") + ":\n    pass"
		}
		return strings.Join(append(imports, bad), "\n")
	}
	return ""
}

var quoted = regexp.MustCompile(`"([^"\\]+)"|'([^'\\]+)'`)

// badColumn returns the first statement of code that names one of the
// columns, with that name misspelt as people do, and the two names. The
// statement is a single line, so it fails on the name before binding or
// writing anything.
func badColumn(code string, columns []string) (stmt, wrong, right string) {
	stmts, ok := statements(code)
	if !ok {
		return "", "", ""
	}
	isCol := map[string]bool{}
	for _, c := range columns {
		isCol[c] = true
	}
	var imports []string
	for _, s := range stmts {
		if strings.HasPrefix(s, "import ") || strings.HasPrefix(s, "from ") {
			imports = append(imports, s)
			continue
		}
		if !strings.Contains(s, "\n") {
			for _, m := range quoted.FindAllStringSubmatch(s, -1) {
				name := m[1] + m[2]
				if !isCol[name] {
					continue
				}
				w := misspell(name)
				if w == "" || isCol[w] {
					continue
				}
				bad := strings.Replace(s, m[0], pyQuote(w), 1)
				return strings.Join(append(imports, bad), "\n"), w, name
			}
		}
		if !strings.HasPrefix(s, "print(") {
			// a statement that may change state comes before any column
			// is named: leave the step alone
			return "", "", ""
		}
	}
	return "", "", ""
}

// misspell writes a column name the way a person guesses it: Title Case,
// spaces for underscores, or a plural.
func misspell(name string) string {
	switch {
	case strings.Contains(name, "_"):
		return strings.ReplaceAll(name, "_", " ")
	case name != "" && name[0] >= 'a' && name[0] <= 'z':
		return strings.ToUpper(name[:1]) + name[1:]
	case name != "" && name[0] >= 'A' && name[0] <= 'Z':
		return strings.ToLower(name)
	}
	return name + "s"
}

func pyQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

var nestedMkdir = regexp.MustCompile(`^os\.makedirs\((['"])(\./output/[^'"]+)(['"]), exist_ok=True\)$`)

// forgetFolder finds the first move that creates a folder inside output/
// right before saving into it, and splits it in two: the move without the
// folder, which runs up to the save and fails there before anything is
// written (FileNotFoundError; pandas raises OSError), and the folder with the
// save and what follows. Run in turn they run the move's statements in
// order, each once. parts is returned unchanged when no move fits.
func forgetFolder(parts [][]move) [][]move {
	for i, p := range parts {
		for j, m := range p {
			if m.kind != moveStep {
				continue
			}
			stmts, ok := statements(m.code)
			if !ok {
				continue
			}
			for k := 0; k+1 < len(stmts); k++ {
				g := nestedMkdir.FindStringSubmatch(stmts[k])
				if g == nil || strings.Contains(stmts[k+1], "\n") || !strings.Contains(stmts[k+1], g[2]+"/") {
					continue
				}
				head := append(append([]string(nil), stmts[:k]...), stmts[k+1])
				orig := m
				pair := []move{
					{kind: moveNoFolder, code: strings.Join(head, "\n"), todo: m.todo, dir: g[2], part: m.part, of: m.of},
					{kind: moveMakeDir, code: strings.Join(stmts[k:], "\n"), todo: fmt.Sprintf("Create %s and save again.", g[2]), dir: g[2], orig: &orig},
				}
				out := append([][]move(nil), parts...)
				out[i] = append(append(append([]move(nil), p[:j]...), pair...), p[j+1:]...)
				return out
			}
		}
	}
	return parts
}

// mixedDates matches the reference's parse of a date column written in
// several layouts: the column stripped into d, then parsed as ISO first.
var mixedDates = regexp.MustCompile(`(?m)^d = (\w+)\[("(?:[^"\\]|\\.)*")\]\.astype\(str\)\.str\.strip\(\)\nwhen = pd\.to_datetime\(d, format='%Y-%m-%d', errors='coerce'\)$`)

// mixedDateColumn is the column (a Python string literal) of table df that
// a later step parses as dates of several layouts, or "".
func mixedDateColumn(steps []schemas.RefStep, df string) string {
	for _, st := range steps[min(1, len(steps)):] {
		if m := mixedDates.FindStringSubmatch(st.Code); m != nil && m[1] == df {
			return m[2]
		}
	}
	return ""
}
