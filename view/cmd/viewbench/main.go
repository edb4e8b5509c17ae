// Command viewbench measures synth view on a large run: it generates a run
// directory of n trajectories (about 2 KB of messages each, a CSV input per
// task, a PNG artifact on every tenth), writes its site, and prints the time
// and peak resident memory (VmHWM) of the write and the site's size. With
// -chromium it then opens the index in headless Chromium several times and
// prints when the first rows were drawn (the page's own performance.now(),
// from navigation start) and the browser's wall time.
//
//	go run ./view/cmd/viewbench [-n 100000] [-chromium chromium] [-runs 5]
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"synth/internal/proccpu"
	"synth/rundir"
	"synth/schemas"
	"synth/view"
)

func main() {
	n := flag.Int("n", 100_000, "trajectories in the generated run")
	browser := flag.String("chromium", "", "headless Chromium to open the index with (empty: skip)")
	runs := flag.Int("runs", 5, "times the index is opened")
	dir := flag.String("o", "", "work folder (default: a temporary one, removed afterwards)")
	flag.Parse()
	if err := run(*n, *browser, *runs, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "viewbench:", err)
		os.Exit(1)
	}
}

func run(n int, browser string, runs int, dir string) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "viewbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	runDir, site := filepath.Join(dir, "run"), filepath.Join(dir, "site")
	index := filepath.Join(site, "index.html")
	if _, err := os.Stat(index); err == nil && browser != "" {
		fmt.Printf("reusing the site in %s\n", site)
		return measure(browser, index, runs, dir)
	}
	t0 := time.Now()
	if err := generate(runDir, n); err != nil {
		return err
	}
	fmt.Printf("generated a run of %d trajectories in %s (%s of "+rundir.Trajectories+")\n", n, time.Since(t0).Round(time.Millisecond), size(filepath.Join(runDir, rundir.Trajectories)))
	t0 = time.Now()
	res, err := view.Build(context.Background(), view.Options{Inputs: []string{runDir}, Out: site})
	if err != nil {
		return err
	}
	el := time.Since(t0)
	fmt.Printf("site written: %d pages in %s (%.0f pages/s), peak RSS %s\n", res.Pages, el.Round(time.Millisecond), float64(res.Pages)/el.Seconds(), vmHWM())
	fmt.Printf("site size: %s in all; index chunks %s; data/meta.js %s\n", size(site), size(filepath.Join(site, "data", "i")), size(filepath.Join(site, "data", "meta.js")))
	if browser == "" {
		return nil
	}
	return measure(browser, res.Index, runs, dir)
}

// measure opens the index runs times and prints the medians.
func measure(browser, index string, runs int, dir string) error {
	var firsts, alls, walls []float64
	for i := range runs {
		first, all, wall, err := openIndex(browser, index, filepath.Join(dir, fmt.Sprintf("profile-%d", i)))
		if err != nil {
			return err
		}
		firsts, alls, walls = append(firsts, first), append(alls, all), append(walls, wall)
	}
	fmt.Printf("index in Chromium, %d opens, ms after navigation start (median; min, max):\n", runs)
	fmt.Printf("  first rows drawn        %6.0f  (%.0f, %.0f)\n", median(firsts), minOf(firsts), maxOf(firsts))
	fmt.Printf("  whole index loaded     %6.0f  (%.0f, %.0f)\n", median(alls), minOf(alls), maxOf(alls))
	fmt.Printf("  browser wall time       %6.0f  (start-up and exit included)\n", median(walls))
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average: %s", b)
	}
	return nil
}

var (
	firstRe = regexp.MustCompile(`data-first-rows-ms="(\d+)"`)
	allRe   = regexp.MustCompile(`data-all-rows-ms="(\d+)"`)
)

// openIndex loads the index in headless Chromium and returns when its
// first rows were drawn, when the whole index was in, and the browser's
// wall time, in ms.
func openIndex(browser, index, profile string) (float64, float64, float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t0 := time.Now()
	out, err := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+profile, "--dump-dom", "file://"+index).Output()
	wall := float64(time.Since(t0).Milliseconds())
	if err != nil {
		return 0, 0, 0, fmt.Errorf("chromium: %w", err)
	}
	m, a := firstRe.FindSubmatch(out), allRe.FindSubmatch(out)
	if m == nil || a == nil {
		return 0, 0, 0, fmt.Errorf("chromium: the index did not load before the page did")
	}
	first, _ := strconv.ParseFloat(string(m[1]), 64)
	all, _ := strconv.ParseFloat(string(a[1]), 64)
	return first, all, wall, nil
}

// generate writes a run directory of n trajectories, streaming.
func generate(dir string, n int) error {
	csv := []byte("region,revenue,units\nNorth,10.5,3\nSouth,20.25,4\nWest,7,1\n")
	csvID := hash(csv)
	png, _ := hex.DecodeString("89504e470d0a1a0a0000000d49484452000000010000000108020000009077" +
		"53de0000000c4944415408d763f8cfc0000003010100c9fe92ef0000000049454e44ae426082")
	pngID := hash(png)
	for _, f := range []struct {
		path string
		b    []byte
	}{
		{filepath.Join(dir, rundir.FilesDir, csvID[:2], csvID, "sales.csv"), csv},
		{filepath.Join(dir, rundir.ArtifactsDir, pngID[:2], pngID), png},
		{filepath.Join(dir, rundir.RunInfo), []byte(fmt.Sprintf(`{"synth_version":"bench","counts":{"rows":%d}}`, n))},
	} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f.path, f.b, 0o644); err != nil {
			return err
		}
	}
	tasks, err := newJSONL(filepath.Join(dir, rundir.Tasks))
	if err != nil {
		return err
	}
	trajs, err := newJSONL(filepath.Join(dir, rundir.Trajectories))
	if err != nil {
		return err
	}
	cats := schemas.Categories
	words := strings.Fields("revenue region units mean median outliers chart sort filter pivot duplicate rows columns missing values histogram")
	for i := range n {
		id := fmt.Sprintf("task%011d", i)
		q := fmt.Sprintf("Task %d: compute the %s of %s by %s and save the result to ./output/%d.csv.", i, words[i%len(words)], words[(i/3)%len(words)], words[(i/7)%len(words)], i)
		t := schemas.Task{ID: id, Category: cats[i%len(cats)], Subcategory: "sub" + strconv.Itoa(i%7), Generator: fmt.Sprintf("template:bench.t%d@1", i%40),
			Query: q, Files: []schemas.TaskFile{{ID: csvID, Name: "sales.csv", Type: "csv"}}, Checks: []schemas.Check{{Kind: schemas.CheckAnswer}}}
		if err := tasks.put(t); err != nil {
			return err
		}
		code := "import pandas as pd\ndf = pd.read_csv('./data/sales.csv')\nprint(df.groupby('region')['revenue'].mean())\n" + strings.Repeat("# a comment line of the cell\n", 20)
		obs := "[INFO]This is a Code Interpreter Message:\n" + strings.Repeat("North    10.50\nSouth    20.25\n", 20)
		passed := i%4 != 0
		tr := schemas.Trajectory{ID: fmt.Sprintf("traj%020d", i), TaskID: id, Teacher: schemas.TeacherInfo{Kind: "openai", Model: "model-" + strconv.Itoa(i%3)},
			Messages: []schemas.Message{{Role: "user", Content: "[INFO]The data is uploaded to ./data/sales.csv"}, {Role: "user", Content: q},
				{Role: "assistant", Content: "Analyse: load\nAction:\n```python\n" + code + "```"}, {Role: "user", Content: obs},
				{Role: "assistant", Content: "Finished: done"}},
			Steps: []schemas.Step{{Code: code, Observation: obs, Status: "ok", ElapsedMS: 20}}, FinalAnswer: "done", StopReason: "finished",
			Verdict: &schemas.Verdict{Passed: passed, Checks: []schemas.CheckResult{{Kind: "answer", OK: passed, Message: "answer"}}}}
		if !passed {
			tr.Verdict.Failure = schemas.FailCheck
		}
		if i%10 == 0 {
			tr.Artifacts = []schemas.Artifact{{Path: "output/plot.png", SHA256: pngID, Size: int64(len(png))}}
		}
		if err := trajs.put(tr); err != nil {
			return err
		}
	}
	if err := tasks.close(); err != nil {
		return err
	}
	return trajs.close()
}

type jsonl struct {
	f   *os.File
	w   *bufio.Writer
	enc *json.Encoder
}

func newJSONL(path string) (*jsonl, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	return &jsonl{f: f, w: w, enc: json.NewEncoder(w)}, nil
}

func (j *jsonl) put(v any) error { return j.enc.Encode(v) }

func (j *jsonl) close() error {
	if err := j.w.Flush(); err != nil {
		j.f.Close()
		return err
	}
	return j.f.Close()
}

func hash(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

func size(path string) string {
	var total int64
	filepath.Walk(path, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			total += fi.Size()
		}
		return nil
	})
	return fmt.Sprintf("%.1f MiB", float64(total)/(1<<20))
}

func vmHWM() string {
	n, err := proccpu.PeakRSS(0)
	if err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%d kB", n>>10)
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func minOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
