package dataset

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"

	"synth/schemas"
)

// batchRows is how many rows a worker hands parquet-go at a time.
const batchRows = 64

// shard is one shard being written: a Parquet file and, when on, a JSONL
// file, both under .tmp names.
type shard struct {
	pq    rowSink
	jsOf  func(*schemas.Row) any // a row as its JSONL line holds it
	pqTmp string
	js    *jsonlFile
	rows  int64
	bytes int64
}

// rowSink is the Parquet side of a shard in one row layout.
type rowSink interface {
	write(r *schemas.Row, size int64) error
	close() error // flushes, writes the footer, fsyncs and closes the file
	abandon()     // closes the file without finishing it
}

func openShard(dir, jsDir string, i int, cfg Config) (*shard, error) {
	base := filepath.Join(dir, fmt.Sprintf("train-%05d", i))
	s := &shard{pqTmp: base + ".parquet.tmp", jsOf: jsonlRowOf(cfg.Format)}
	var err error
	switch cfg.Format {
	case FormatOpenAITools:
		s.pq, err = newParquetSink(s.pqTmp, cfg, toolsRowOf)
	default:
		s.pq, err = newParquetSink(s.pqTmp, cfg, func(r *schemas.Row) schemas.Row { return *r })
	}
	if err != nil {
		return nil, err
	}
	if cfg.JSONL {
		s.js, err = openJSONL(filepath.Join(jsDir, fmt.Sprintf("train-%05d", i)) + ".jsonl.tmp")
		if err != nil {
			s.pq.abandon()
			os.Remove(s.pqTmp)
			return nil, err
		}
	}
	return s, nil
}

func (s *shard) write(r *schemas.Row) error {
	size := rowBytes(r)
	if err := s.pq.write(r, size); err != nil {
		return err
	}
	if s.js != nil {
		if err := s.js.write(s.jsOf(r)); err != nil {
			return err
		}
	}
	s.rows++
	s.bytes += size
	return nil
}

func (s *shard) close() error {
	if err := s.pq.close(); err != nil {
		if s.js != nil {
			s.js.abandon()
		}
		return err
	}
	if s.js != nil {
		return s.js.close()
	}
	return nil
}

func (s *shard) tmpPaths() []string {
	if s.js != nil {
		return []string{s.pqTmp, s.js.tmp}
	}
	return []string{s.pqTmp}
}

// abandon closes the files unfinished and removes them.
func (s *shard) abandon() {
	s.pq.abandon()
	if s.js != nil {
		s.js.abandon()
	}
	s.remove()
}

func (s *shard) remove() {
	for _, p := range s.tmpPaths() {
		os.Remove(p)
	}
}

// rowBytes is the raw text of a row's messages, the measure of ShardBytes.
func rowBytes(r *schemas.Row) int64 {
	var n int64
	for i := range r.Messages {
		m := &r.Messages[i]
		n += int64(len(m.Role) + len(m.Content))
		for _, c := range m.ToolCalls {
			n += int64(len(c.Name) + len(c.Arguments))
		}
	}
	return n
}

// parquetSink writes rows converted to layout T. It buffers a row group's
// rows and encodes and compresses each full group in its own goroutine
// (at most Config.Workers at once), committing the groups to the file in
// order from the owner goroutine.
type parquetSink[T any] struct {
	f         *os.File
	w         *parquet.GenericWriter[T]
	conv      func(*schemas.Row) T
	group     []T
	groupRows int
	groupMax  int64 // bytes of text that end a group early
	groupSize int64
	inflight  []*groupJob
	workers   int
	path      string
}

// groupJob is a row group being encoded by a worker.
type groupJob struct {
	rg   *parquet.ConcurrentRowGroupWriter
	done chan error
}

func newParquetSink[T any](path string, cfg Config, conv func(*schemas.Row) T) (*parquetSink[T], error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	w := parquet.NewGenericWriter[T](f,
		parquet.Compression(newZstdCodec(cfg.ZstdLevel)),
		parquet.MaxRowsPerRowGroup(int64(cfg.RowGroupRows)),
		parquet.WriteBufferSize(1<<20),
		parquet.CreatedBy("synth", "", ""),
	)
	w.SetKeyValueMetadata("synth.format", cfg.Format)
	w.SetKeyValueMetadata("huggingface", huggingfaceMetadata(cfg.Format))
	return &parquetSink[T]{
		f: f, w: w, conv: conv, path: path,
		groupRows: cfg.RowGroupRows, groupMax: cfg.RowGroupBytes, group: make([]T, 0, cfg.RowGroupRows), workers: cfg.Workers,
	}, nil
}

func (p *parquetSink[T]) write(r *schemas.Row, size int64) error {
	p.group = append(p.group, p.conv(r))
	p.groupSize += size
	if len(p.group) == p.groupRows || p.groupSize >= p.groupMax {
		return p.submit()
	}
	return nil
}

// submit hands the buffered rows to a worker as one row group, first
// committing the oldest group when all workers are busy.
func (p *parquetSink[T]) submit() error {
	if len(p.group) == 0 {
		return nil
	}
	if len(p.inflight) == p.workers {
		if err := p.commitOldest(); err != nil {
			return err
		}
	}
	rows := p.group
	p.group = make([]T, 0, p.groupRows)
	p.groupSize = 0
	job := &groupJob{rg: p.w.BeginRowGroup(), done: make(chan error, 1)}
	p.inflight = append(p.inflight, job)
	schema := p.w.Schema()
	go func() { job.done <- encodeGroup(job.rg, schema, rows) }()
	return nil
}

// encodeGroup deconstructs rows into rg's columns and flushes its pages,
// compressing them.
func encodeGroup[T any](rg *parquet.ConcurrentRowGroupWriter, schema *parquet.Schema, rows []T) error {
	buf := make([]parquet.Row, batchRows)
	for start := 0; start < len(rows); start += batchRows {
		end := min(start+batchRows, len(rows))
		batch := buf[:end-start]
		for i := range batch {
			batch[i] = schema.Deconstruct(batch[i][:0], &rows[start+i])
		}
		if _, err := rg.WriteRows(batch); err != nil {
			return err
		}
	}
	return rg.Flush()
}

func (p *parquetSink[T]) commitOldest() error {
	job := p.inflight[0]
	p.inflight = p.inflight[1:]
	if err := <-job.done; err != nil {
		return fmt.Errorf("%s: %w", p.path, err)
	}
	if _, err := job.rg.Commit(); err != nil {
		return fmt.Errorf("%s: %w", p.path, err)
	}
	return nil
}

func (p *parquetSink[T]) close() error {
	err := p.submit()
	for err == nil && len(p.inflight) > 0 {
		err = p.commitOldest()
	}
	if err != nil {
		p.abandon()
		return err
	}
	if err := p.w.Close(); err != nil {
		p.f.Close()
		return fmt.Errorf("%s: %w", p.path, err)
	}
	if err := p.f.Sync(); err != nil {
		p.f.Close()
		return fmt.Errorf("%s: %w", p.path, err)
	}
	if err := p.f.Close(); err != nil {
		return fmt.Errorf("%s: %w", p.path, err)
	}
	return nil
}

// abandon waits for the workers and closes the file unfinished.
func (p *parquetSink[T]) abandon() {
	for _, job := range p.inflight {
		<-job.done
	}
	p.inflight = nil
	p.f.Close()
}

// jsonlFile writes one JSON row per line.
type jsonlFile struct {
	f   *os.File
	bw  *bufio.Writer
	enc *json.Encoder
	tmp string
}

// jsonlRowOf returns how a row of format is written as JSON: in the
// openai-tools format its Parquet layout (arguments an object, tool
// messages named), in pybench's the row as it is.
func jsonlRowOf(format string) func(*schemas.Row) any {
	if format == FormatOpenAITools {
		return func(r *schemas.Row) any { return toolsRowOf(r) }
	}
	return func(r *schemas.Row) any { return r }
}

func openJSONL(path string) (*jsonlFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &jsonlFile{f: f, bw: bw, enc: enc, tmp: path}, nil
}

func (j *jsonlFile) write(v any) error {
	if err := j.enc.Encode(v); err != nil {
		return fmt.Errorf("%s: %w", j.tmp, err)
	}
	return nil
}

func (j *jsonlFile) close() error {
	err := j.bw.Flush()
	if err == nil {
		err = j.f.Sync()
	}
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", j.tmp, err)
	}
	return nil
}

func (j *jsonlFile) abandon() { j.f.Close() }
