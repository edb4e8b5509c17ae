package dataset

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"synth/rundir"
	"synth/schemas"
)

// Writer writes dataset rows as Parquet shards named
// train-00000-of-0000N.parquet in one directory (and, when Config.JSONL is
// set, train-00000-of-0000N.jsonl in jsonlDir's folder).
//
// A shard ends when it reaches Config.ShardRows rows or Config.ShardBytes
// bytes of message text. Each shard is written to a .tmp file, closed and
// fsynced; since N is known only at the end, Close renames every shard to
// its final name, removes shards of an earlier emit that the new names do not
// cover, and fsyncs the directory. Until Close returns, readers of the
// directory see the previous dataset, if any.
//
// A Writer is not safe for concurrent use: one goroutine owns it, calls Write
// for each row and then Close (or Abort) exactly once. Internally it encodes
// and compresses full row groups on up to Config.Workers goroutines and
// commits them to the file in order, so rows keep their order.
type Writer struct {
	dir    string
	jsDir  string // where JSONL shards go: see jsonlDir
	cfg    Config
	cur    *shard
	tmps   [][]string // per finished shard: its .tmp paths (parquet, jsonl)
	rows   int64
	bytes  int64
	stats  Stats
	err    error // sticky: the first write error
	closed bool
}

// NewWriter returns a Writer into dir, creating dir if needed. It removes
// .tmp shards a crashed emit left in dir; it writes nothing until the first
// Write. With Config.JSONL, the JSONL shards go to jsonlDir(dir), never
// beside the Parquet shards where readers glob them.
func NewWriter(dir string, cfg Config) (*Writer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	stale, err := filepath.Glob(filepath.Join(dir, "train-*.tmp"))
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	if js := jsonlDir(dir); js != dir {
		more, _ := filepath.Glob(filepath.Join(js, "train-*.tmp"))
		stale = append(stale, more...)
	}
	for _, p := range stale {
		if err := os.Remove(p); err != nil {
			return nil, fmt.Errorf("dataset %s: removing a stale shard: %w", dir, err)
		}
	}
	w := &Writer{dir: dir, jsDir: jsonlDir(dir), cfg: cfg.withDefaults()}
	if w.cfg.JSONL && w.jsDir != dir {
		if err := os.MkdirAll(w.jsDir, 0o755); err != nil {
			return nil, fmt.Errorf("dataset %s: %w", w.jsDir, err)
		}
	}
	return w, nil
}

// Write appends r to the current shard, starting a new shard when the
// current one is full. After an error every later Write returns it and Close
// removes the .tmp files.
func (w *Writer) Write(r schemas.Row) error {
	if w.closed {
		return errors.New("dataset: write after close")
	}
	if w.err != nil {
		return w.err
	}
	check := checkPyBench
	if w.cfg.Format == FormatOpenAITools {
		check = checkTools
	}
	if err := check(&r); err != nil {
		w.err = err
		return err
	}
	if w.cur == nil {
		s, err := openShard(w.dir, w.jsDir, len(w.tmps), w.cfg)
		if err != nil {
			w.err = err
			return err
		}
		w.cur = s
	}
	if err := w.cur.write(&r); err != nil {
		w.err = fmt.Errorf("dataset: row %s: %w", r.ID, err)
		return w.err
	}
	w.rows++
	w.bytes += rowBytes(&r)
	w.stats.AddRow(&r)
	if w.cur.rows >= int64(w.cfg.ShardRows) || w.cur.bytes >= w.cfg.ShardBytes {
		if err := w.finishShard(); err != nil {
			w.err = err
			return err
		}
	}
	return nil
}

// Rows returns the number of rows written so far.
func (w *Writer) Rows() int64 { return w.rows }

// Bytes returns the raw message text of the rows written so far.
func (w *Writer) Bytes() int64 { return w.bytes }

// Stats returns the statistics of the rows written so far, for the card.
// Their tokens are the rows' tokens column (see RowOf).
func (w *Writer) Stats() Stats {
	s := w.stats
	s.Categories = slices.Clone(s.Categories)
	s.VerdictClasses = maps.Clone(s.VerdictClasses)
	s.TokensCounted = TokensFromColumn
	return s
}

func (w *Writer) finishShard() error {
	s := w.cur
	w.cur = nil
	if err := s.close(); err != nil {
		s.remove()
		return err
	}
	w.tmps = append(w.tmps, s.tmpPaths())
	return nil
}

// Close finishes the last shard and publishes all shards under their final
// names, returning their paths in order (Parquet shards first, then the
// JSONL files when on). When no row was written it writes no file and
// returns an empty list and no error. On error no shard is published and the
// .tmp files are removed.
func (w *Writer) Close() ([]string, error) {
	if w.closed {
		return nil, errors.New("dataset: close after close")
	}
	w.closed = true
	if w.err == nil && w.cur != nil {
		w.err = w.finishShard()
	}
	if w.err != nil {
		w.removeTmps()
		return nil, w.err
	}
	paths, err := w.publish()
	if err != nil {
		w.removeTmps()
		return nil, err
	}
	return paths, nil
}

// Abort stops the writer without publishing anything: the .tmp files are
// removed and the directory keeps what it had before. It is a no-op after
// Close.
func (w *Writer) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	if w.cur != nil {
		w.cur.abandon()
		w.cur = nil
	}
	w.removeTmps()
}

func (w *Writer) removeTmps() {
	if w.cur != nil {
		w.cur.abandon()
		w.cur = nil
	}
	for _, ps := range w.tmps {
		for _, p := range ps {
			os.Remove(p)
		}
	}
	w.tmps = nil
}

// shardName matches the files a Writer publishes.
var shardName = regexp.MustCompile(`^train-\d{5}-of-\d{5}\.(parquet|jsonl)$`)

// publish renames the .tmp shards to their final names, removes older
// shards that are not among them, and fsyncs the directory.
func (w *Writer) publish() ([]string, error) {
	n := len(w.tmps)
	var parquets, jsonls []string
	keep := map[string]bool{}
	for i, ps := range w.tmps {
		for _, tmp := range ps {
			ext := filepath.Ext(trimTmp(tmp))
			final := filepath.Join(filepath.Dir(tmp), fmt.Sprintf("train-%05d-of-%05d%s", i, n, ext))
			if err := os.Rename(tmp, final); err != nil {
				return nil, fmt.Errorf("dataset: publishing %s: %w", final, err)
			}
			keep[final] = true
			if ext == ".jsonl" {
				jsonls = append(jsonls, final)
			} else {
				parquets = append(parquets, final)
			}
		}
	}
	w.tmps = nil
	dirs := []string{w.dir}
	if w.jsDir != w.dir {
		dirs = append(dirs, w.jsDir)
	}
	for _, dir := range dirs {
		if err := sweep(dir, keep); err != nil {
			return nil, err
		}
	}
	return append(append([]string{}, parquets...), jsonls...), nil
}

// sweep removes the shards in dir that are not among keep (an earlier
// emit's, or JSONL an earlier synth wrote beside the Parquet shards) and
// fsyncs dir. A dir that does not exist has nothing to sweep.
func sweep(dir string, keep map[string]bool) error {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dataset %s: %w", dir, err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if shardName.MatchString(e.Name()) && !keep[p] {
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("dataset: removing an earlier shard: %w", err)
			}
		}
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("dataset %s: %w", dir, err)
	}
	return nil
}

// jsonlDir is where a Writer into dir puts its JSONL shards: beside the
// Hugging Face layout's data/ folder, in jsonl/ (dataset/jsonl, as synth
// export --format jsonl writes), so that a reader globbing data/ finds
// Parquet alone; a dir of another name keeps them in itself.
func jsonlDir(dir string) string {
	if filepath.Base(dir) == rundir.DatasetShards {
		return filepath.Join(filepath.Dir(dir), "jsonl")
	}
	return dir
}

func trimTmp(p string) string { return p[:len(p)-len(".tmp")] }

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// checkPyBench refuses a row the pybench layout cannot hold without loss.
func checkPyBench(r *schemas.Row) error {
	for i := range r.Messages {
		if len(r.Messages[i].ToolCalls) > 0 || r.Messages[i].ToolCallID != "" {
			return fmt.Errorf("dataset: row %s has tool calls, which the pybench format cannot hold: set dataset.format: %s", r.ID, FormatOpenAITools)
		}
	}
	return nil
}
