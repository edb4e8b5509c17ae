// Command emitbench measures the emit stage: it turns synthetic trajectories
// of about 8 KB into dataset rows and writes them as Parquet shards, then
// prints the throughput in MB/s of raw message text and the peak resident
// memory (VmHWM from /proc/self/status).
//
//	go run ./dataset/cmd/emitbench [-n 100000] [-size 8192] [-offline-tokens]
//
// Trajectories carry teacher usage, as those from an API teacher do; with
// -offline-tokens they carry none, so every row's tokens are counted offline.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"synth/dataset"
	"synth/internal/proccpu"
	"synth/schemas"
)

func main() {
	n := flag.Int("n", 100_000, "trajectories to emit")
	size := flag.Int("size", 8192, "approximate bytes of message text per trajectory")
	offline := flag.Bool("offline-tokens", false, "report no usage, so tokens are counted offline")
	level := flag.Int("zstd-level", 0, "zstd level (default: dataset's default)")
	dir := flag.String("o", "", "output directory (default: a temporary one, removed afterwards)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the emit to `file`")
	flag.StringVar(&memprofile, "memprofile", "", "write a heap profile halfway through the emit to `file`")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "emitbench:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if err := run(*n, *size, *offline, *dir, dataset.Config{ZstdLevel: *level}); err != nil {
		fmt.Fprintln(os.Stderr, "emitbench:", err)
		os.Exit(1)
	}
}

func run(n, size int, offline bool, dir string, cfg dataset.Config) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "emitbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	gen := newGenerator(size)
	task := &schemas.Task{ID: "task", Category: schemas.CategoryData, Subcategory: "dedup",
		Files: []schemas.TaskFile{{Name: "a.csv", Type: "csv"}}}
	w, err := dataset.NewWriter(dir, cfg)
	if err != nil {
		return err
	}
	// A pool of distinct trajectories, generated before the clock starts,
	// is cycled with fresh ids, so the figure is the emit stage's alone.
	pool := make([]*schemas.Trajectory, min(n, poolSize))
	for i := range pool {
		pool[i] = gen.trajectory(i, offline)
	}
	var raw int64
	cpu0 := cpuTime()
	start := time.Now()
	for i := range n {
		tr := *pool[i%len(pool)]
		tr.ID = fmt.Sprintf("traj-%07d", i)
		// A fresh query per copy, so no copy is a repeat of another (the
		// offline token count remembers repeats).
		tr.Messages = slices.Clone(tr.Messages)
		tr.Messages[2].Content = fmt.Sprintf("(%d) %s", i, tr.Messages[2].Content)
		for _, m := range tr.Messages {
			raw += int64(len(m.Content))
		}
		if err := w.Write(dataset.RowOf(task, &tr, nil)); err != nil {
			return err
		}
		if i == n/2 && memprofile != "" {
			if err := writeHeapProfile(memprofile); err != nil {
				return err
			}
		}
	}
	paths, err := w.Close()
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	cpu := cpuTime() - cpu0
	var disk int64
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			disk += fi.Size()
		}
	}
	fmt.Printf("rows            %d in %d shards\n", n, len(paths))
	fmt.Printf("raw text        %.1f MB (%.0f B/row)\n", float64(raw)/1e6, float64(raw)/float64(n))
	fmt.Printf("on disk         %.1f MB (zstd, %.1fx)\n", float64(disk)/1e6, float64(raw)/float64(disk))
	fmt.Printf("elapsed         %.2f s\n", elapsed.Seconds())
	fmt.Printf("throughput      %.1f MB/s of raw text (wall clock)\n", float64(raw)/1e6/elapsed.Seconds())
	fmt.Printf("CPU time        %.2f s: %.1f MB of raw text per CPU-second\n", cpu.Seconds(), float64(raw)/1e6/cpu.Seconds())
	fmt.Printf("peak RSS        %s (VmHWM)\n", vmHWM())
	fmt.Printf("GOMAXPROCS      %d\n", runtime.GOMAXPROCS(0))
	return nil
}

// poolSize is how many distinct trajectories are generated: enough that no
// two copies share a Parquet page, so compression sees realistic text.
const poolSize = 2000

var memprofile string

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// cpuTime returns the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// vmHWM is this process's peak resident memory (VmHWM) in kB.
func vmHWM() string {
	n, err := proccpu.PeakRSS(0)
	if err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%d kB", n>>10)
}

// generator makes varied, realistic-looking trajectories: prose from a
// vocabulary, Python cells and tabular observations, so the text compresses
// as real data does rather than as a repeated string.
type generator struct {
	rng  *rand.Rand
	size int
	sb   strings.Builder
}

func newGenerator(size int) *generator {
	return &generator{rng: rand.New(rand.NewPCG(1, 2)), size: size}
}

var words = strings.Fields(`the data column value mean median rows file frame load clean remove
duplicate missing sort group count plot chart save output figure axis label title price sales
year month region product customer order total average rate change first next step check result
error index type string number float integer table sheet read write csv excel image audio text`)

var code = []string{
	"import pandas as pd\ndf = pd.read_csv('./data/a.csv')\ndf.head()",
	"df = df.drop_duplicates()\nprint(df.shape)",
	"import matplotlib.pyplot as plt\nplt.figure(figsize=(8, 5))\nplt.plot(df['year'], df['sales'])\nplt.savefig('./output/1.png')",
	"summary = df.groupby('region')['price'].agg(['mean', 'median', 'count'])\nprint(summary)",
	"df['date'] = pd.to_datetime(df['date'])\ndf = df.sort_values('date')\ndf.to_csv('./output/2.csv', index=False)",
}

func (g *generator) prose(n int) string {
	g.sb.Reset()
	for g.sb.Len() < n {
		g.sb.WriteString(words[g.rng.IntN(len(words))])
		g.sb.WriteByte(' ')
	}
	return g.sb.String()
}

func (g *generator) table(n int) string {
	g.sb.Reset()
	g.sb.WriteString("     region   price  sales  year\n")
	for i := 0; g.sb.Len() < n; i++ {
		fmt.Fprintf(&g.sb, "%-4d %-7s %6.2f %6d %5d\n", i, words[g.rng.IntN(len(words))], g.rng.Float64()*1000, g.rng.IntN(100000), 1990+g.rng.IntN(35))
	}
	return g.sb.String()
}

func (g *generator) trajectory(i int, offline bool) *schemas.Trajectory {
	tr := &schemas.Trajectory{
		ID: fmt.Sprintf("traj-%07d", i), TaskID: fmt.Sprintf("task-%07d", i),
		Teacher:  schemas.TeacherInfo{Kind: "openai", Model: "gpt-4o"},
		Verdict:  &schemas.Verdict{Passed: true},
		Messages: make([]schemas.Message, 0, 16),
	}
	add := func(role, content string) {
		tr.Messages = append(tr.Messages, schemas.Message{Role: role, Content: content})
	}
	add("system", "You are an AI Agent who is proficient in solve complicated task. Each step you should wirte executable code to fulfill user query.")
	add("user", "[INFO]The data is uploaded to ./data/a.csv")
	add("user", g.prose(120))
	total := 0
	for _, m := range tr.Messages {
		total += len(m.Content)
	}
	for total < g.size-200 {
		a := "Analyse: " + g.prose(200) + "\nThis Step Todo: " + g.prose(60) + "\nAction:\n```python\n" + code[g.rng.IntN(len(code))] + "\n```"
		o := "[INFO]This is a Code Interpreter Message:\n" + g.table(600+g.rng.IntN(600))
		add("assistant", a)
		add("user", o)
		total += len(a) + len(o)
	}
	add("assistant", "Finished: "+g.prose(150))
	if !offline {
		tr.Usage = schemas.Usage{PromptTokens: int64(total), CompletionTokens: int64(total / 4)}
	}
	return tr
}
