package dataset

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	kzstd "github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"synth/schemas"
)

// batchRows is how many rows a shard hands parquet-go at a time.
const batchRows = 64

// shard is one shard being written: a Parquet file and, when on, a JSONL
// file, both under .tmp names.
type shard struct {
	pq    rowSink
	pqTmp string
	js    *jsonlFile
	rows  int64
	bytes int64
}

// rowSink is the Parquet side of a shard in one row layout.
type rowSink interface {
	write(r *schemas.Row) error
	close() error // flushes, writes the footer, fsyncs and closes the file
	abandon()     // closes the file without finishing it
}

func openShard(dir string, i int, cfg Config) (*shard, error) {
	base := filepath.Join(dir, fmt.Sprintf("train-%05d", i))
	s := &shard{pqTmp: base + ".parquet.tmp"}
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
		s.js, err = openJSONL(base + ".jsonl.tmp")
		if err != nil {
			s.pq.abandon()
			os.Remove(s.pqTmp)
			return nil, err
		}
	}
	return s, nil
}

func (s *shard) write(r *schemas.Row) error {
	if err := s.pq.write(r); err != nil {
		return err
	}
	if s.js != nil {
		if err := s.js.write(r); err != nil {
			return err
		}
	}
	s.rows++
	s.bytes += rowBytes(r)
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

// parquetSink writes rows converted to layout T.
type parquetSink[T any] struct {
	f     *os.File
	w     *parquet.GenericWriter[T]
	conv  func(*schemas.Row) T
	batch []T
	path  string
}

func newParquetSink[T any](path string, cfg Config, conv func(*schemas.Row) T) (*parquetSink[T], error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	w := parquet.NewGenericWriter[T](f,
		parquet.Compression(&zstd.Codec{Level: kzstd.EncoderLevelFromZstd(cfg.ZstdLevel)}),
		parquet.MaxRowsPerRowGroup(int64(cfg.RowGroupRows)),
		parquet.WriteBufferSize(1<<20),
		parquet.CreatedBy("synth", "", ""),
	)
	w.SetKeyValueMetadata("synth.format", cfg.Format)
	return &parquetSink[T]{f: f, w: w, conv: conv, batch: make([]T, 0, batchRows), path: path}, nil
}

func (p *parquetSink[T]) write(r *schemas.Row) error {
	p.batch = append(p.batch, p.conv(r))
	if len(p.batch) == cap(p.batch) {
		return p.flushBatch()
	}
	return nil
}

func (p *parquetSink[T]) flushBatch() error {
	if len(p.batch) == 0 {
		return nil
	}
	_, err := p.w.Write(p.batch)
	clear(p.batch) // drop references to the rows' strings
	p.batch = p.batch[:0]
	if err != nil {
		return fmt.Errorf("%s: %w", p.path, err)
	}
	return nil
}

func (p *parquetSink[T]) close() error {
	if err := p.flushBatch(); err != nil {
		p.f.Close()
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

func (p *parquetSink[T]) abandon() { p.f.Close() }

// jsonlFile writes one JSON row per line.
type jsonlFile struct {
	f   *os.File
	bw  *bufio.Writer
	enc *json.Encoder
	tmp string
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

func (j *jsonlFile) write(r *schemas.Row) error {
	if err := j.enc.Encode(r); err != nil {
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
