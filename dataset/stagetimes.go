package dataset

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"synth/rundir"
	"synth/schemas"
)

// addStageTimes reads the stage times of the run that path belongs to, if
// any. A run.json without them (an older synth) adds nothing.
func (r *Report) addStageTimes(path string) error {
	p := rundir.FindRunInfo(path)
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
