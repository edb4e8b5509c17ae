package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"synth/agent"
	"synth/dataset"
	"synth/rollout"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

// ReplayReport is what synth replay found: how many of the sampled rows'
// observations came out byte for byte as recorded.
type ReplayReport struct {
	Rows         int      `json:"rows"`         // dataset rows in the run
	Sampled      int      `json:"sampled"`      // rows re-executed
	Observations int      `json:"observations"` // cells re-executed
	Identical    int      `json:"identical"`    // cells whose observation and status came out byte-identical
	Differ       []string `json:"differ"`       // ids of sampled rows with a cell that did not reproduce
	// AddressesOnly counts the cells that differ only in hexadecimal
	// numbers (object addresses in printed reprs): what the allocator's
	// history can still move. The observations themselves are compared as
	// printed; this only classifies the differences.
	AddressesOnly int `json:"addresses_only"`
	// First is the first difference found, for the report: row, cell,
	// recorded and replayed observation (clipped).
	First *ReplayDiff `json:"first_difference,omitempty"`
}

// ReplayDiff is one cell that did not reproduce.
type ReplayDiff struct {
	Row      string `json:"row"`
	Cell     int    `json:"cell"`
	Recorded string `json:"recorded"`
	Replayed string `json:"replayed"`
}

// Share is the identical observations' share of those re-executed, 1 when
// there were none.
func (r *ReplayReport) Share() float64 {
	if r.Observations == 0 {
		return 1
	}
	return float64(r.Identical) / float64(r.Observations)
}

// Replay re-executes the code of n of the dataset rows of the run in dir
// (all when n <= 0 or n is more than there are), each in a fresh sandbox
// seeded as its rollout was, with its recorded assistant turns played back
// through the same loop, and compares every observation and cell status
// with the recorded one, byte for byte. The sample is the n rows whose ids
// hash lowest, so the same run and n replay the same rows. It writes the
// report to RUN/replay.json and a "Reproduction" section into the dataset
// card that names every sampled row that did not reproduce.
func Replay(ctx context.Context, dir string, n int) (*ReplayReport, error) {
	info, err := runinfo.Read(dir)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if info == nil {
		return nil, fmt.Errorf("replay: %s has no %s: give the directory synth build -o wrote", dir, rundir.RunInfo)
	}
	r := newBuilder(info.Config, Options{Out: dir})
	defer r.close()
	ids, err := rowIDs(dir)
	if err != nil {
		return nil, err
	}
	rep := &ReplayReport{Rows: len(ids), Differ: []string{}}
	sample := sampleIDs(ids, n)
	trajs, err := trajectoriesByID(dir, sample)
	if err != nil {
		return nil, err
	}
	tasks, err := tasksByID(filepath.Join(dir, rundir.Tasks))
	if err != nil {
		return nil, err
	}
	_, fs, err := r.knownFiles()
	if err != nil {
		return nil, err
	}
	b, err := r.sandbox()
	if err != nil {
		return nil, err
	}
	var format agent.Format = agent.NewPyBench()
	if info.Config.Teacher.Format == "openai-tools" {
		format = agent.NewToolsFormat()
	}
	scratch, err := os.MkdirTemp("", "synth-replay-")
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer os.RemoveAll(scratch)
	p := rollout.Player{Backend: b, Artifacts: scratch, Teacher: info.Config.Teacher, MaxTurns: info.Config.Teacher.MaxTurns,
		Limits: rollout.CollectLimits(info.Config.Sandbox)}
	for _, id := range sample {
		t, ok := trajs[id]
		if !ok {
			return nil, fmt.Errorf("replay: row %s has no trajectory in %s", id, filepath.Join(dir, rundir.Trajectories))
		}
		task, ok := tasks[t.TaskID]
		if !ok {
			return nil, fmt.Errorf("replay: row %s: task %s is not in %s", id, t.TaskID, rundir.Tasks)
		}
		jb := job{id: t.ID, task: task, sample: t.Sample, teacher: &playback{rec: t}, format: format}
		again, err := p.Perform(ctx, jb.played(), fs.inputs(task))
		if err != nil {
			return nil, fmt.Errorf("replay: row %s: %w", id, err)
		}
		rep.Sampled++
		same := compareSteps(rep, id, t.Steps, again.Steps)
		if !same {
			rep.Differ = append(rep.Differ, id)
		}
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.Replay), append(js, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if err := flagInCard(filepath.Join(dir, rundir.DatasetDir, rundir.DatasetCard), rep); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return rep, nil
}

// compareSteps counts recorded against replayed cells into rep and says
// whether all of them came out the same.
func compareSteps(rep *ReplayReport, id string, rec, got []schemas.Step) bool {
	same := len(rec) == len(got)
	for i, st := range rec {
		rep.Observations++
		if i < len(got) && got[i].Observation == st.Observation && got[i].Status == st.Status {
			rep.Identical++
			continue
		}
		same = false
		if i < len(got) && got[i].Status == st.Status && hexNumber.ReplaceAllString(got[i].Observation, "0x?") == hexNumber.ReplaceAllString(st.Observation, "0x?") {
			rep.AddressesOnly++
		}
		if rep.First == nil {
			d := &ReplayDiff{Row: id, Cell: i + 1, Recorded: clip(st.Observation)}
			if i < len(got) {
				d.Replayed = clip(got[i].Observation)
			}
			rep.First = d
		}
	}
	return same
}

var hexNumber = regexp.MustCompile(`0[xX][0-9a-fA-F]+`)

func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}

// playback is a teacher that replies with a recorded trajectory's
// assistant turns, in order.
type playback struct{ rec *schemas.Trajectory }

func (p *playback) Info() schemas.TeacherInfo { return p.rec.Teacher }

func (p *playback) Reply(_ context.Context, req agent.Request) (agent.Reply, error) {
	k := 0
	for _, m := range req.Messages {
		if m.Role == schemas.RoleAssistant {
			k++
		}
	}
	seen := 0
	for _, m := range p.rec.Messages {
		if m.Role != schemas.RoleAssistant {
			continue
		}
		if seen == k {
			return agent.Reply{Message: m}, nil
		}
		seen++
	}
	return agent.Reply{}, fmt.Errorf("replay: trajectory %s: turn %d: %w", p.rec.ID, k+1, agent.ErrNotRecorded)
}

// rowIDs reads the ids of the run's dataset rows.
func rowIDs(dir string) ([]string, error) {
	shards, err := dataset.FindShards(filepath.Join(dir, rundir.DatasetDir))
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	var ids []string
	for _, sh := range shards {
		if err := dataset.ReadRows(sh, func(r *schemas.Row) error { ids = append(ids, r.ID); return nil }); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("replay: %s has no dataset rows", dir)
	}
	return ids, nil
}

// sampleIDs picks the n ids whose sha256 is lowest (all when n <= 0), in
// that order.
func sampleIDs(ids []string, n int) []string {
	key := func(id string) []byte { h := sha256.Sum256([]byte("replay " + id)); return h[:] }
	out := slices.Clone(ids)
	slices.SortFunc(out, func(a, b string) int { return bytes.Compare(key(a), key(b)) })
	if n > 0 && n < len(out) {
		out = out[:n]
	}
	return out
}

// trajectoriesByID reads the trajectories with the wanted ids from the run's
// journal and its shards' journals.
func trajectoriesByID(dir string, want []string) (map[string]*schemas.Trajectory, error) {
	set := map[string]bool{}
	for _, id := range want {
		set[id] = true
	}
	paths := []string{filepath.Join(dir, rundir.Trajectories)}
	shards, _ := filepath.Glob(filepath.Join(dir, rundir.ShardsDir, "*", rundir.Trajectories))
	paths = append(paths, shards...)
	out := map[string]*schemas.Trajectory{}
	for _, p := range paths {
		err := rundir.ReadJournal(p, func(t schemas.Trajectory) error {
			if set[t.ID] {
				out[t.ID] = &t
			}
			return nil
		})
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("replay: %w", err)
		}
	}
	return out, nil
}

func tasksByID(path string) (map[string]*schemas.Task, error) {
	out := map[string]*schemas.Task{}
	err := rundir.ReadJournal(path, func(t schemas.Task) error { out[t.ID] = &t; return nil })
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return out, nil
}

// Markers of the dataset card's reproduction section, which each replay
// replaces.
const (
	replayBegin = "<!-- synth replay: begin -->"
	replayEnd   = "<!-- synth replay: end -->"
)

// flagInCard writes rep into the dataset card as its "Reproduction"
// section, replacing the one an earlier replay wrote.
func flagInCard(path string, rep *ReplayReport) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	card := string(b)
	if i := strings.Index(card, replayBegin); i >= 0 {
		if j := strings.Index(card[i:], replayEnd); j >= 0 {
			card = card[:i] + card[i+j+len(replayEnd):]
		}
	}
	var s strings.Builder
	s.WriteString(replayBegin + "\n## Reproduction\n\n")
	fmt.Fprintf(&s, "`synth replay` re-executed the code of %d of the %d rows, each in a fresh sandbox seeded as its rollout was: "+
		"%d of %d observations (%.1f%%) came out byte-identical", rep.Sampled, rep.Rows, rep.Identical, rep.Observations, 100*rep.Share())
	if d := rep.Observations - rep.Identical; d > 0 {
		fmt.Fprintf(&s, "; of the %d that differ, %d differ only in object addresses (0x…)", d, rep.AddressesOnly)
	}
	s.WriteString(".")
	if len(rep.Differ) == 0 {
		s.WriteString(" Every sampled row reproduced.\n")
	} else {
		fmt.Fprintf(&s, " These %d rows did not reproduce (an observation or a cell's status differs):\n\n", len(rep.Differ))
		for _, id := range rep.Differ {
			fmt.Fprintf(&s, "- `%s`\n", id)
		}
	}
	s.WriteString(replayEnd + "\n")
	card = strings.TrimRight(card, "\n") + "\n\n" + s.String()
	return os.WriteFile(path, []byte(card), 0o644)
}
