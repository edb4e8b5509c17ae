package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Defaults applied where Config and Spec leave a limit zero.
const (
	DefaultCellTimeout = 60 * time.Second
	DefaultCPUTime     = 10 * time.Minute
	DefaultMemory      = 4 << 30
	DefaultFileSize    = 1 << 30
	DefaultOpenFiles   = 256
	DefaultProcesses   = 64
	DefaultOutput      = 64 << 10
	DefaultWorkspace   = 1 << 30
	DefaultInodes      = 20000
	DefaultTmp         = 512 << 20
)

// DefaultLimits returns the limits a sandbox gets when neither the config nor
// the Spec sets them.
func DefaultLimits() Limits {
	return Limits{
		CellTimeout: DefaultCellTimeout,
		CPUTime:     DefaultCPUTime,
		MemoryBytes: DefaultMemory,
		FileBytes:   DefaultFileSize,
		OpenFiles:   DefaultOpenFiles,
		Processes:   DefaultProcesses,
		OutputBytes: DefaultOutput,

		WorkspaceBytes: DefaultWorkspace,
		Inodes:         DefaultInodes,
		TmpBytes:       DefaultTmp,
	}
}

// ParsedLimits converts the config's limits ("30s", "2GiB") to Limits.
// Empty values stay zero (the default applies); an invalid value is an error
// naming its key.
func (c Config) ParsedLimits() (Limits, error) {
	var l Limits
	var err error
	y := c.Limits
	if l.CellTimeout, err = parseDuration("sandbox.limits.cell_timeout", y.CellTimeout); err != nil {
		return l, err
	}
	if l.CPUTime, err = parseDuration("sandbox.limits.cpu_time", y.CPUTime); err != nil {
		return l, err
	}
	if l.MemoryBytes, err = parseSize("sandbox.limits.memory", y.Memory); err != nil {
		return l, err
	}
	if l.FileBytes, err = parseSize("sandbox.limits.file_size", y.FileSize); err != nil {
		return l, err
	}
	out, err := parseSize("sandbox.limits.output", y.Output)
	if err != nil {
		return l, err
	}
	l.OutputBytes = int(out)
	if y.OpenFiles < 0 {
		return l, fmt.Errorf("sandbox.limits.open_files: %d is negative (use 0 for the default, %d)", y.OpenFiles, DefaultOpenFiles)
	}
	if y.Processes < 0 {
		return l, fmt.Errorf("sandbox.limits.processes: %d is negative (use 0 for the default, %d)", y.Processes, DefaultProcesses)
	}
	l.OpenFiles, l.Processes = y.OpenFiles, y.Processes
	if l.WorkspaceBytes, err = parseSize("sandbox.limits.workspace", y.Workspace); err != nil {
		return l, err
	}
	if l.TmpBytes, err = parseSize("sandbox.limits.tmp", y.Tmp); err != nil {
		return l, err
	}
	if y.Inodes < 0 {
		return l, fmt.Errorf("sandbox.limits.inodes: %d is negative (use 0 for the default, %d)", y.Inodes, DefaultInodes)
	}
	l.Inodes = y.Inodes
	if _, err := c.ParsedCollectLimits(); err != nil {
		return l, err
	}
	return l, nil
}

// ParsedCollectLimits converts sandbox.artifacts to CollectLimits; zero
// values stay zero (the defaults apply).
func (c Config) ParsedCollectLimits() (CollectLimits, error) {
	y := c.Artifacts
	for _, v := range []struct {
		key string
		n   int
	}{{"max_files", y.MaxFiles}, {"max_depth", y.MaxDepth}, {"max_path", y.MaxPath}} {
		if v.n < 0 {
			return CollectLimits{}, fmt.Errorf("sandbox.artifacts.%s: %d is negative (use 0 for the default)", v.key, v.n)
		}
	}
	b, err := parseSize("sandbox.artifacts.max_bytes", y.MaxBytes)
	if err != nil {
		return CollectLimits{}, err
	}
	return CollectLimits{Files: y.MaxFiles, Bytes: b, Depth: y.MaxDepth, Path: y.MaxPath}, nil
}

func parseDuration(key, s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s: %q is not a duration (write it like \"30s\", \"2m\" or \"1h30m\")", key, s)
	}
	return d, nil
}

var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// parseSize reads "2GiB", "512MiB", "64KiB", "1GB" or a plain byte count.
func parseSize(key, s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	num, mult := strings.ToLower(s), int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || f*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("%s: %q is not a size (write it like \"2GiB\", \"512MiB\" or \"64KiB\")", key, s)
	}
	return int64(f * float64(mult)), nil
}

// merge returns l with its zero fields taken from base.
func (l Limits) merge(base Limits) Limits {
	if l.CellTimeout <= 0 {
		l.CellTimeout = base.CellTimeout
	}
	if l.CPUTime <= 0 {
		l.CPUTime = base.CPUTime
	}
	if l.MemoryBytes <= 0 {
		l.MemoryBytes = base.MemoryBytes
	}
	if l.FileBytes <= 0 {
		l.FileBytes = base.FileBytes
	}
	if l.OpenFiles <= 0 {
		l.OpenFiles = base.OpenFiles
	}
	if l.Processes <= 0 {
		l.Processes = base.Processes
	}
	if l.OutputBytes <= 0 {
		l.OutputBytes = base.OutputBytes
	}
	if l.WorkspaceBytes <= 0 {
		l.WorkspaceBytes = base.WorkspaceBytes
	}
	if l.Inodes <= 0 {
		l.Inodes = base.Inodes
	}
	if l.TmpBytes <= 0 {
		l.TmpBytes = base.TmpBytes
	}
	return l
}
