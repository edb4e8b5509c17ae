package sandbox

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// A template is a backend whose interpreters start with one task's inputs
// already read into memory. Its zygote reads them once, with the pandas
// call a reference solution would use, before it forks anything; the stem,
// a copy of that zygote, forks every interpreter as for any backend (own
// namespaces, workspace, /tmp, uid, cgroup, system call filter), so each
// starts with the frames in its copy-on-write memory and none sees what
// another does to them. The inputs are placed once, in a read-only folder
// that every workspace's data/ is a read-only bind of, instead of a copy
// per sandbox.
//
// The zygote parses the files as root, before any privilege is dropped,
// inside bubblewrap (system read-only, no network), bounded by
// TemplateLimits. So a template is for files whoever runs synth supplied
// (a benchmark's data/), never for a client's.

// Read is one input a template reads: the name a cell finds its value under
// in the inputs dict ("data/x.csv") and the pandas call that reads it,
// relative to the workspace (Layout.Call of sources/tableread for tables).
type Read struct {
	Name string `json:"name"`
	Call string `json:"call"`
}

// readCalls are the only calls a template makes: data formats, never
// pickle or anything that runs code from the file.
var readCalls = []string{"pd.read_csv(", "pd.read_excel(", "pd.read_parquet(", "pd.read_json("}

// TemplateLimits bound the zygote's reading of the inputs: the address
// space and CPU time the reads may add, and the wall time until its first
// interpreter could fork.
type TemplateLimits struct {
	MemoryBytes int64
	CPUTime     time.Duration
	Wall        time.Duration
}

// DefaultTemplateLimits are TemplateLimits' values where zero.
var DefaultTemplateLimits = TemplateLimits{MemoryBytes: 4 << 30, CPUTime: 60 * time.Second, Wall: 2 * time.Minute}

// templateModule is the resident module that reads a template's inputs
// into the dict inputs, which driver.py gives every cell as a global.
const templateModule = "synth_inputs"

//go:embed template.py
var templateSource string

// NewTemplate returns a backend of cfg whose interpreters start with reads
// done: inputs are placed once under a read-only data/ folder, the zygote
// reads each with its call, and every sandbox's data/ is that folder, bound
// read-only. Open ignores Spec.Inputs beyond checking their names are the
// template's. NewTemplate starts the zygote; a read that fails or passes a
// limit is an error naming the file, and nothing is left behind. It needs
// root (a tmpfs workspace per sandbox and mounts), and Close removes the
// folder.
func NewTemplate(cfg Config, inputs []Input, reads []Read, lim TemplateLimits) (Backend, error) {
	if err := checkReads(inputs, reads); err != nil {
		return nil, err
	}
	lim = lim.withDefaults()
	b, err := newBackend(cfg)
	if err != nil {
		return nil, err
	}
	if !b.quota || !b.ownUIDs() {
		b.Close()
		return nil, errors.New("sandbox: preloaded inputs need root (a workspace tmpfs per sandbox and a uid of its own); run synth as root, or leave preloading off")
	}
	shared, _, err := makeWorkspace(b.lim, nil, false)
	if err != nil {
		b.Close()
		return nil, err
	}
	b.shared = shared
	if err := prepareWorkspace(shared, inputs, false); err != nil {
		b.Close()
		return nil, fmt.Errorf("sandbox: preload: %w", err)
	}
	for _, in := range inputs {
		b.sharedNames = append(b.sharedNames, in.Name)
	}
	src, err := templateResident(shared, reads, lim)
	if err != nil {
		b.Close()
		return nil, err
	}
	b.cfg.Residents = append(b.cfg.Residents, src)
	b.startDur = lim.Wall
	if err := b.Warm(); err != nil {
		b.Close()
		return nil, fmt.Errorf("sandbox: preloading %s (wall time limit %s): %w", strings.Join(b.sharedNames, ", "), lim.Wall, err)
	}
	return b, nil
}

func (l TemplateLimits) withDefaults() TemplateLimits {
	d := DefaultTemplateLimits
	if l.MemoryBytes <= 0 {
		l.MemoryBytes = d.MemoryBytes
	}
	if l.CPUTime <= 0 {
		l.CPUTime = d.CPUTime
	}
	if l.Wall <= 0 {
		l.Wall = d.Wall
	}
	return l
}

// checkReads refuses reads a template must not make: a call that is not
// one of readCalls, a name that is not data/ and an input's name, or none.
func checkReads(inputs []Input, reads []Read) error {
	if len(reads) == 0 {
		return errors.New("sandbox: preload: nothing to read")
	}
	for _, r := range reads {
		if !slices.ContainsFunc(readCalls, func(p string) bool { return strings.HasPrefix(r.Call, p) }) {
			return fmt.Errorf("sandbox: preload %s: %q is not a pandas reader of a data format (%s)", r.Name, r.Call, strings.Join(readCalls, " "))
		}
		name, ok := strings.CutPrefix(r.Name, "data/")
		if !ok || !slices.ContainsFunc(inputs, func(in Input) bool { return in.Name == name }) {
			return fmt.Errorf("sandbox: preload %s: not data/ and the name of one of the task's inputs", r.Name)
		}
	}
	return nil
}

// templateResident is the resident module that reads reads inside root
// (the folder holding data/) within lim.
func templateResident(root string, reads []Read, lim TemplateLimits) (Resident, error) {
	list, err := json.Marshal(reads)
	if err != nil {
		return Resident{}, err
	}
	head := fmt.Sprintf("ROOT = %s\nREADS = %s\nMEMORY = %d\nCPU = %d\n",
		strconv.Quote(root), strconv.Quote(string(list)), lim.MemoryBytes, int64(lim.CPUTime.Seconds()+0.999))
	return Resident{Name: templateModule, Source: head + templateSource, Init: "load"}, nil
}

// templateReady checks the zygote's report of the template's reads.
func (b *backend) templateReady(z *zygote) error {
	if b.shared == "" {
		return nil
	}
	if got := z.ready.Preload[templateModule]; got != "ok" {
		return fmt.Errorf("the read failed: %s", got)
	}
	return nil
}

// bindShared makes ws/data a read-only bind of the template's data/.
func (b *backend) bindShared(ws string) error {
	src, dst := filepath.Join(b.shared, "data"), filepath.Join(ws, "data")
	if err := os.MkdirAll(dst, 0o555); err != nil {
		return err
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind %s: %w", src, err)
	}
	if err := unix.Mount("", dst, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		unix.Unmount(dst, unix.MNT_DETACH)
		return fmt.Errorf("bind %s read-only: %w", src, err)
	}
	return nil
}

// sameInputs refuses a Spec whose inputs are not the template's.
func (b *backend) sameInputs(inputs []Input) error {
	if inputs == nil {
		return nil
	}
	var names []string
	for _, in := range inputs {
		names = append(names, in.Name)
	}
	if !slices.Equal(names, b.sharedNames) {
		return fmt.Errorf("sandbox: this backend holds the inputs %v, not %v", b.sharedNames, names)
	}
	return nil
}
