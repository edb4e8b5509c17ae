package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

// TestReplayReproducesAndFlags builds a small run of image tasks, whose
// cells print PIL images with their addresses, and replays every row: all
// observations come out byte-identical, and run.json records what that
// depends on. Then one recorded observation is changed in the journal: the
// replay finds that row, and the dataset card names it; so it finds a row
// whose recorded cell kept its output but changed its status, and one whose
// journal lost its last cell.
func TestReplayReproducesAndFlags(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	cfg := quickConfig()
	cfg.Tasks.Templates = []string{"image.concat", "image.grayscale"}
	cfg.Bench.Fraction = 0
	if _, err := Build(context.Background(), cfg, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	info, err := runinfo.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if info.Reproduction == nil || info.Reproduction.PythonHashSeed != "0" || info.Reproduction.Seeds == "" {
		t.Errorf("run.json reproduction = %+v", info.Reproduction)
	}
	trajs, err := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if err != nil {
		t.Fatal(err)
	}
	addresses := 0
	for _, tr := range trajs {
		for _, st := range tr.Steps {
			if strings.Contains(st.Observation, " at 0x") {
				addresses++
			}
		}
	}
	if addresses == 0 {
		t.Fatal("no observation prints an address: the test would prove nothing about them")
	}

	rep, err := Replay(context.Background(), dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("replay: %d rows, %d observations (%d with an address), %d identical", rep.Sampled, rep.Observations, addresses, rep.Identical)
	// Every observation reproduces, addresses included, where the sandbox
	// fixes them: randomisation off and every interpreter forked from the
	// same heap (the replay's zygote served other sandboxes before than the
	// build's did). Elsewhere every observation without an address does.
	differ := rep.Observations - rep.Identical
	if r := info.Reproduction; r != nil && r.FixedAddresses && r.SameStartHeap && differ > 0 {
		t.Fatalf("replay of an untouched run with fixed addresses: %d of %d observations differ (%d only in addresses); first difference %+v",
			differ, rep.Observations, rep.AddressesOnly, rep.First)
	}
	if rep.Sampled != rep.Rows || rep.Rows == 0 || differ != rep.AddressesOnly || differ > addresses || len(rep.Differ) > 0 && len(rep.Differ) != differ {
		t.Fatalf("replay of an untouched run: %d observations, %d identical, %d differ only in addresses (of %d printing one); rows that differ %v; first difference %+v",
			rep.Observations, rep.Identical, rep.AddressesOnly, addresses, rep.Differ, rep.First)
	}
	card, _ := os.ReadFile(filepath.Join(dir, rundir.DatasetDir, rundir.DatasetCard))
	if !strings.Contains(string(card), "## Reproduction") {
		t.Errorf("the card has no reproduction section:\n%s", card)
	}
	for _, id := range rep.Differ {
		if !strings.Contains(string(card), "`"+id+"`") {
			t.Errorf("the card does not flag %s, which did not reproduce", id)
		}
	}
	before := rep

	// Change one recorded observation, another's status, and cut a third
	// row's last cell: replay must find each.
	victim, restatused, cut := "", "", ""
	var lines []string
	for _, tr := range trajs {
		plain := tr.Verdict != nil && tr.Verdict.Passed && len(tr.Steps) > 0 && !strings.Contains(tr.Steps[0].Observation, " at 0x")
		switch {
		case plain && victim == "":
			victim = tr.ID
			tr.Steps[0].Observation += " "
		case plain && restatused == "":
			restatused = tr.ID
			tr.Steps[0].Status = map[string]string{schemas.StatusOK: schemas.StatusError}[tr.Steps[0].Status]
			if tr.Steps[0].Status == "" {
				tr.Steps[0].Status = schemas.StatusOK
			}
		case plain && cut == "":
			cut = tr.ID
			tr.Steps = tr.Steps[:len(tr.Steps)-1]
		}
		b, _ := json.Marshal(tr)
		lines = append(lines, string(b))
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.Trajectories), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = Replay(context.Background(), dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if cut == "" {
		t.Fatalf("fewer than three passed rows without an address in their first cell: %d rows", len(trajs))
	}
	for _, id := range []string{victim, restatused, cut} {
		if !slices.Contains(rep.Differ, id) {
			t.Errorf("replay does not find %s (changed: %s a trailing space, %s a status, %s its last cell cut): rows that differ %v",
				id, victim, restatused, cut, rep.Differ)
		}
	}
	if rep.Observations-rep.Identical-rep.AddressesOnly != 2 {
		t.Fatalf("after changing %s's output and %s's status: %d of %d identical, %d differ in addresses only (before: %d)",
			victim, restatused, rep.Identical, rep.Observations, rep.AddressesOnly, before.AddressesOnly)
	}
	card, _ = os.ReadFile(filepath.Join(dir, rundir.DatasetDir, rundir.DatasetCard))
	if !strings.Contains(string(card), "`"+victim+"`") || strings.Count(string(card), "## Reproduction") != 1 {
		t.Errorf("the card does not flag %s once:\n%s", victim, card)
	}
	// The same n replays the same rows.
	a, b := sampleIDs([]string{"a", "b", "c", "d"}, 2), sampleIDs([]string{"d", "c", "b", "a"}, 2)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("samples %v and %v of the same ids", a, b)
	}
}
