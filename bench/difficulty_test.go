package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/schemas"
)

// TestCalibrateBands proves that a model's results rewrite the bands by
// its pass rate, that a result naming another task under the same index,
// or lost to the infrastructure, does not count, and that a task the
// model did not run keeps its band.
func TestCalibrateBands(t *testing.T) {
	tasks := []schemas.Task{{ID: "a", Index: "2"}, {ID: "b", Index: "3"}, {ID: "c", Index: "4"}}
	d := Difficulty{Tasks: []TaskDifficulty{{Index: "2", TaskID: "a", Band: BandHard}, {Index: "3", TaskID: "b", Band: BandEasy}, {Index: "4", TaskID: "c", Band: BandMedium}}}
	r := func(index, id string, passed, infra bool) Result {
		return Result{Index: index, TaskID: id, Passed: passed, Infra: infra}
	}
	rs := []Result{r("2", "a", true, false), r("2", "a", true, false), r("2", "x", false, false), r("2", "a", false, true),
		r("3", "b", false, false), r("3", "b", true, false)}
	if n := d.Calibrate(tasks, rs, "m", "res"); n != 2 {
		t.Fatalf("calibrated %d tasks, want 2", n)
	}
	want := []string{BandEasy, BandMedium, BandMedium}
	for i, td := range d.Tasks {
		if td.Band != want[i] {
			t.Errorf("task %s: band %s, want %s (model rate %v)", td.Index, td.Band, want[i], td.ModelPassRate)
		}
	}
	if d.Bands.Source != BandsCalibrated || d.Bands.Model != "m" || d.Tasks[2].ModelPassRate != nil {
		t.Errorf("bands %+v, task 4 rate %v: want calibrated by m, task 4 untouched", d.Bands, d.Tasks[2].ModelPassRate)
	}
}

// TestLoadDifficultyRefusesHostile proves that a difficulty file with an
// unknown band or an index given twice is refused, naming the file, and
// that the file is not part of the benchmark's content hash.
func TestLoadDifficultyRefusesHostile(t *testing.T) {
	for name, body := range map[string]string{
		"unknown band": `{"tasks":[{"index":"2","task_id":"a","band":"trivial"}]}`,
		"index twice":  `{"tasks":[{"index":"2","task_id":"a","band":"easy"},{"index":"2","task_id":"b","band":"hard"}]}`,
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, DifficultyFile), []byte(body), 0o644)
		if _, ok, err := LoadDifficulty(dir); !ok || err == nil || !strings.Contains(err.Error(), DifficultyFile) {
			t.Errorf("%s: ok %v, err %v; want an error naming %s", name, ok, err, DifficultyFile)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, TasksFile), []byte("{}\n"), 0o644)
	before, _ := ContentHash(dir)
	os.WriteFile(filepath.Join(dir, DifficultyFile), []byte(`{"tasks":[]}`), 0o644)
	if after, _ := ContentHash(dir); after != before {
		t.Error("writing the difficulty file changed the content hash")
	}
}
