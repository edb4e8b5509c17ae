package manual

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"synth/rundir"
	"synth/schemas"
)

// Demo is what a make demo run recorded in its run.json: each stage's
// counts and CPU time.
type Demo struct {
	Stages []schemas.StageTime `json:"stage_times"`
	Counts struct {
		BenchTasks int `json:"bench_tasks"`
		Rows       int `json:"rows"`
		TrainTasks int `json:"train_tasks"`
	} `json:"counts"`
}

// ReadDemo reads the run directory's run.json.
func ReadDemo(dir string) (Demo, error) {
	var d Demo
	found, err := rundir.ReadRunInfo(dir, &d)
	if err == nil && !found {
		err = fmt.Errorf("%s has no run.json: run make demo first", dir)
	}
	if err == nil && len(d.Stages) == 0 {
		err = fmt.Errorf("%s/run.json records no stage times: run make demo again", dir)
	}
	return d, err
}

// CPUSeconds is the CPU time of every stage together.
func (d Demo) CPUSeconds() float64 {
	var s float64
	for _, st := range d.Stages {
		s += st.CPUSeconds
	}
	return s
}

func (d Demo) stage(name string) (schemas.StageTime, bool) {
	for _, st := range d.Stages {
		if st.Stage == name {
			return st, true
		}
	}
	return schemas.StageTime{}, false
}

// CPUTolerance is how far a quoted "about N CPU-seconds" may be from the
// demo's: CPU time moves with the machine's load from run to run.
const CPUTolerance = 0.3

// FiguresMarker, alone on a line, starts a paragraph whose figures are
// the demo's: the paragraph after it, up to the next blank line, is checked.
const FiguresMarker = "<!-- figures: make demo -->"

// Figures compares a page with the demo and returns one line per figure
// that disagrees: the funnel block (a ``` block starting with the
// "stage in out" header), whose stages and counts must be the demo's, and
// each paragraph after FiguresMarker, whose "N benchmark tasks",
// "N training rollouts", "N rows" and "N tasks" must be the demo's and
// whose "N CPU-seconds" must be within CPUTolerance of it (a demo without
// CPU times, a test's build on a loaded machine, checks the counts only).
func Figures(page, text string, d Demo) []string {
	var bad []string
	bad = append(bad, checkFunnel(page, text, d)...)
	for _, p := range markedParagraphs(text) {
		bad = append(bad, checkParagraph(page, p, d)...)
	}
	return bad
}

// FunnelLine is one stage of a funnel as synth build prints it and the
// pages quote it: "   stage   in  out  note" (In is -1 for "-").
type FunnelLine struct {
	Stage   string
	In, Out int
	Note    string
}

// FunnelHeader starts a funnel block: a ``` block whose first line it is.
const FunnelHeader = "     stage   in  out"

var funnelLine = regexp.MustCompile(`^ *(\S+) +(-|\d+) +(\d+)  (.*)$`)

// Funnel parses the funnel block of a page: ok is false when the page has
// none, err names a line that is not "stage in out note".
func Funnel(text string) (lines []FunnelLine, ok bool, err error) {
	_, block, ok := strings.Cut(text, "```\n"+FunnelHeader+"\n")
	if !ok {
		return nil, false, nil
	}
	block, _, closed := strings.Cut(block, "```")
	if !closed {
		return nil, true, fmt.Errorf("the funnel block does not end")
	}
	for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		m := funnelLine.FindStringSubmatch(l)
		if m == nil {
			return lines, true, fmt.Errorf("funnel line %q is not \"stage in out note\"", l)
		}
		f := FunnelLine{Stage: m[1], In: -1, Note: m[4]}
		if m[2] != "-" {
			f.In, _ = strconv.Atoi(m[2])
		}
		f.Out, _ = strconv.Atoi(m[3])
		lines = append(lines, f)
	}
	return lines, true, nil
}

func checkFunnel(page, text string, d Demo) []string {
	lines, ok, err := Funnel(text)
	if !ok {
		return nil
	}
	if err != nil {
		return []string{page + ": " + err.Error()}
	}
	var bad []string
	if len(lines) != len(d.Stages) {
		bad = append(bad, fmt.Sprintf("%s: the funnel has %d stages, the demo %d", page, len(lines), len(d.Stages)))
	}
	for i, l := range lines {
		if i >= len(d.Stages) {
			continue
		}
		st := d.Stages[i]
		in := st.In
		if st.Stage == "collect" {
			in = -1
		}
		if l.Stage != st.Stage || l.In != in || l.Out != st.Out {
			bad = append(bad, fmt.Sprintf("%s: funnel line %d says %s %s %d, the demo %s %s %d", page, i+1, l.Stage, count(l.In), l.Out, st.Stage, count(in), st.Out))
		}
	}
	return bad
}

// count writes a funnel's in count: "-" for none.
func count(n int) string {
	if n < 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

var markerLine = regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(FiguresMarker) + `$`)

// markedParagraphs are the paragraphs after a line that is FiguresMarker
// alone (the marker quoted inside a line marks nothing).
func markedParagraphs(text string) []string {
	var ps []string
	for _, part := range markerLine.Split(text, -1)[1:] {
		part = strings.TrimLeft(part, "\n")
		p, _, _ := strings.Cut(part, "\n\n")
		ps = append(ps, p)
	}
	return ps
}

var (
	countFigure = regexp.MustCompile(`([\d,]+) (benchmark tasks|training rollouts|rows|tasks)\b`)
	cpuFigure   = regexp.MustCompile(`(\d+(?:\.\d+)?) CPU-seconds`)
)

func checkParagraph(page, p string, d Demo) []string {
	var bad []string
	validate, _ := d.stage("validate")
	rollout, _ := d.stage("rollout")
	generate, _ := d.stage("generate")
	want := map[string]int{
		"benchmark tasks":   validate.Out,
		"training rollouts": rollout.In,
		"rows":              d.Counts.Rows,
		"tasks":             generate.Out,
	}
	found := 0
	for _, m := range countFigure.FindAllStringSubmatch(p, -1) {
		n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		found++
		if n != want[m[2]] {
			bad = append(bad, fmt.Sprintf("%s: %q, the demo %d %s", page, m[0], want[m[2]], m[2]))
		}
	}
	for _, m := range cpuFigure.FindAllStringSubmatch(p, -1) {
		n, _ := strconv.ParseFloat(m[1], 64)
		found++
		if got := d.CPUSeconds(); got > 0 && math.Abs(n-got) > CPUTolerance*got {
			bad = append(bad, fmt.Sprintf("%s: %q, the demo took %.1f CPU-seconds (more than %.0f%% apart)", page, m[0], got, 100*CPUTolerance))
		}
	}
	if found == 0 {
		bad = append(bad, fmt.Sprintf("%s: a paragraph marked %s quotes no figure it can check", page, FiguresMarker))
	}
	return bad
}
