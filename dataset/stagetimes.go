package dataset

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"synth/schemas"
)

// runFileName is the run directory's record of itself, which holds the
// stage times of its last build.
const runFileName = "run.json"

// findRunJSON returns the run.json of the run that path belongs to: path
// itself a run directory, a run's dataset/ or dataset/data/ folder, or a file
// in one of them. "" when path is not inside a synth run.
func findRunJSON(path string) string {
	dir := path
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		dir = filepath.Dir(path)
	}
	for range 3 {
		p := filepath.Join(dir, runFileName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

// addStageTimes reads the stage times of the run that path belongs to, if
// any. A run.json without them (an older synth) adds nothing.
func (r *Report) addStageTimes(path string) error {
	p := findRunJSON(path)
	if p == "" {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	var v struct {
		StageTimes []schemas.StageTime `json:"stage_times"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	r.StageTimes = v.StageTimes
	return nil
}

// writeStageTimes prints the stages' wall and CPU times.
func writeStageTimes(w io.Writer, times []schemas.StageTime) error {
	if len(times) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nstage times (last build):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  stage\tin\tout\twall\tcpu\t")
	var wall time.Duration
	var cpu float64
	for _, s := range times {
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\t%.1fs\t\n", s.Stage, s.In, s.Out, s.Wall().Round(time.Millisecond), s.CPUSeconds)
		wall += s.Wall()
		cpu += s.CPUSeconds
	}
	fmt.Fprintf(tw, "  total\t\t\t%s\t%.1fs\t\n", wall.Round(time.Millisecond), cpu)
	return tw.Flush()
}
