package arrowexport

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"synth/dataset"
	"synth/schemas"
)

// Options shape the export.
type Options struct {
	// BatchRows is the rows per Arrow record batch (default 1000, as
	// datasets writes them).
	BatchRows int
	// Description and License go into dataset_info.json.
	Description string
	License     string
	// Split names the split in state.json and dataset_info.json (default
	// train).
	Split string
}

// Result is what SaveToDisk wrote.
type Result struct {
	Files []string // the .arrow files, in order
	Rows  int64
}

// File names of the save_to_disk layout.
const (
	InfoFile  = "dataset_info.json"
	StateFile = "state.json"
)

// SaveToDisk writes the rows of the Parquet shards (written by a
// dataset.Writer, in one format) into dst in the layout of datasets'
// save_to_disk: one Arrow IPC stream file per shard, then
// dataset_info.json and state.json. Files are written under .tmp names and
// renamed when complete; Arrow files of an earlier export that the new names
// do not cover are removed. With no shards it writes an empty dataset.
func SaveToDisk(dst string, shards []string, opt Options) (Result, error) {
	if opt.BatchRows <= 0 {
		opt.BatchRows = 1000
	}
	if opt.Split == "" {
		opt.Split = "train"
	}
	format := dataset.FormatPyBench
	if len(shards) > 0 {
		f, err := dataset.ShardFormat(shards[0])
		if err != nil {
			return Result{}, fmt.Errorf("export arrow: %w", err)
		}
		format = f
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return Result{}, fmt.Errorf("export arrow: %w", err)
	}
	n := max(len(shards), 1)
	var res Result
	var bytes int64
	fp := sha256.New()
	for i := range n {
		name := fmt.Sprintf("data-%05d-of-%05d.arrow", i, n)
		var src string
		if i < len(shards) {
			src = shards[i]
		}
		rows, size, err := writeShard(filepath.Join(dst, name), src, format, opt.BatchRows, fp)
		if err != nil {
			return Result{}, fmt.Errorf("export arrow: %s: %w", name, err)
		}
		res.Files = append(res.Files, filepath.Join(dst, name))
		res.Rows += rows
		bytes += size
	}
	if err := removeStale(dst, res.Files); err != nil {
		return Result{}, fmt.Errorf("export arrow: %w", err)
	}
	fingerprint := hex.EncodeToString(fp.Sum(nil))[:16]
	if err := writeInfo(dst, format, opt, res.Rows, bytes); err != nil {
		return Result{}, fmt.Errorf("export arrow: %w", err)
	}
	if err := writeState(dst, res.Files, fingerprint, opt.Split); err != nil {
		return Result{}, fmt.Errorf("export arrow: %w", err)
	}
	return res, nil
}

// writeShard converts one Parquet shard (none: an empty file) to an Arrow
// IPC stream at path, feeding the row ids to fp.
func writeShard(path, src, format string, batchRows int, fp interface{ Write([]byte) (int, error) }) (rows, size int64, err error) {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	schema := schemaOf(format)
	w := ipc.NewWriter(f, ipc.WithSchema(schema))
	rb := &rowBuilder{b: array.NewRecordBuilder(memory.DefaultAllocator, schema), tools: format == dataset.FormatOpenAITools}
	defer rb.b.Release()
	pending := 0
	flush := func() error {
		rec := rb.b.NewRecordBatch()
		defer rec.Release()
		pending = 0
		return w.Write(rec)
	}
	if src != "" {
		err = dataset.ReadRows(src, func(r *schemas.Row) error {
			rb.append(r)
			fp.Write([]byte(r.ID + "\n"))
			rows++
			if pending++; pending == batchRows {
				return flush()
			}
			return nil
		})
		if err != nil {
			return 0, 0, err
		}
	}
	if pending > 0 {
		if err = flush(); err != nil {
			return 0, 0, err
		}
	}
	if err = w.Close(); err != nil {
		return 0, 0, err
	}
	if err = f.Sync(); err != nil {
		return 0, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	if err = f.Close(); err != nil {
		return 0, 0, err
	}
	if err = os.Rename(tmp, path); err != nil {
		return 0, 0, err
	}
	return rows, fi.Size(), nil
}

var arrowName = regexp.MustCompile(`^data-\d{5}-of-\d{5}\.arrow$`)

func removeStale(dir string, keep []string) error {
	k := map[string]bool{}
	for _, p := range keep {
		k[filepath.Base(p)] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if arrowName.MatchString(e.Name()) && !k[e.Name()] {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeInfo writes dataset_info.json: the fields of datasets' DatasetInfo
// that matter, first-level keys sorted as datasets writes them.
func writeInfo(dir, format string, opt Options, rows, bytes int64) error {
	info := map[string]any{
		"builder_name": nil,
		"citation":     "",
		"config_name":  nil,
		"dataset_name": nil,
		"dataset_size": bytes,
		"description":  opt.Description,
		"features":     dataset.FeaturesJSON(dataset.Features(format)),
		"homepage":     "",
		"license":      opt.License,
		"splits": map[string]any{opt.Split: map[string]any{
			"name": opt.Split, "num_bytes": bytes, "num_examples": rows, "dataset_name": nil,
		}},
		"version": nil,
	}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, InfoFile), b)
}

// writeState writes state.json as save_to_disk does.
func writeState(dir string, files []string, fingerprint, split string) error {
	type dataFile struct {
		Filename string `json:"filename"`
	}
	var df []dataFile
	for _, f := range files {
		df = append(df, dataFile{filepath.Base(f)})
	}
	state := map[string]any{
		"_data_files":         df,
		"_fingerprint":        fingerprint,
		"_format_columns":     nil,
		"_format_kwargs":      map[string]any{},
		"_format_type":        nil,
		"_output_all_columns": false,
		"_split":              split,
	}
	b, err := json.MarshalIndent(state, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, StateFile), b)
}

func writeFile(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
