package checks

import (
	_ "embed"
	"strings"

	"synth/sandbox"
)

// Library is the Python checks library: checks.py, then the chart helpers
// of charts.py. Verify sends it into the sandbox; TestsPy copies it into
// the exported tests.py. Its entry points are run_checks(checks, answer,
// messages) and trajectory_answer(trajectory).
var Library = libraryCore + libraryCharts

//go:embed checks.py
var libraryCore string

//go:embed charts.py
var libraryCharts string

// figuresSource is the figure recorder (figures.py).
//
//go:embed figures.py
var figuresSource string

// recorder is the figure recorder as a resident module: the zygote runs
// its install, which wraps matplotlib's Figure.savefig and wordcloud's
// savers so that every interpreter forked after it writes, beside each
// figure it saves, output/.figures/<sha256>.json: what the figure plotted.
// The chart checks (charts.py) judge a chart by that record.
var recorder = sandbox.Resident{Name: "synth_figures", Source: figuresSource, Init: "install"}

// FigureRecorder is the figure recorder as a resident module of the
// sandbox. Whoever builds a backend that runs rollouts gives it in
// sandbox.Config's Residents (rollout.Residents does); without it, no
// chart a rollout saves carries a record and every chart check fails.
func FigureRecorder() sandbox.Resident { return recorder }

// resident is Library as the sandbox's zygote holds it: compiled once, with
// every module a check may need imported (zygote_init), so that a
// verification sandbox forked from it starts ready. Verify uses it only when
// its digest is Library's, and compiles Library itself otherwise.
var resident = sandbox.Resident{Name: "synth_checks", Source: Library, Init: "zygote_init"}

var residentSHA256 = resident.SHA256()

// Resident is the checks library as a resident module of the sandbox.
// Whoever builds a backend that verifies gives it in sandbox.Config's
// Residents; Verify also works on a backend without it, at the cost of
// compiling the library and importing what it needs in every verification
// sandbox.
func Resident() sandbox.Resident { return resident }

// FigureRecordDir is the folder, under output/, where the figure recorder
// writes a record of each figure a rollout saves, as <sha256>.json.
const FigureRecordDir = "output/.figures/"

// IsFigureRecord reports whether a workspace-relative path is in the
// figure recorder's folder: a record says what a figure plotted and
// follows that figure; it is not an output of its own.
func IsFigureRecord(name string) bool { return strings.HasPrefix(name, FigureRecordDir) }
