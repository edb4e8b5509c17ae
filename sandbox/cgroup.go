package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// cgroups is where the backend makes one cgroup per sandbox, holding its
// memory (tmpfs pages included) and its process count. It is a cgroup v2
// subtree when synth's own cgroup delegates the memory and pids
// controllers, else the cgroup v1 memory and pids hierarchies; where
// neither can be written (no root, no delegation) it is off, and why says
// so.
type cgroups struct {
	version int      // 2, 1, or 0 when off
	parents []string // synth's own directory in each hierarchy: .../synth-<pid>
	why     string   // why cgroups are off
	seq     atomic.Int64
	removes sync.WaitGroup // directories being removed in the background
}

// cgroupPrefix names the directory of one backend in a hierarchy,
// synth-<pid>-<n>; the sweep removes those of processes that are gone.
const cgroupPrefix = "synth-"

// backends numbers the backends of this process.
var backends atomic.Int64

// setupCgroups finds the hierarchies synth's own cgroups are in and makes
// its directory in each.
func setupCgroups() *cgroups {
	own, mounts, err := cgroupPlaces()
	if err != nil {
		return &cgroups{why: err.Error()}
	}
	name := cgroupPrefix + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(backends.Add(1), 10)
	if m, ok := mounts["2"]; ok {
		dir := filepath.Join(m, own["2"])
		os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory +pids"), 0)
		if ctl, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers")); err == nil &&
			hasWords(string(ctl), "memory", "pids") {
			p := filepath.Join(dir, name)
			if err := os.Mkdir(p, 0o755); err == nil || os.IsExist(err) {
				if os.WriteFile(filepath.Join(p, "cgroup.subtree_control"), []byte("+memory +pids"), 0) == nil {
					sweepCgroups(dir)
					return &cgroups{version: 2, parents: []string{p}}
				}
				os.Remove(p)
			}
		}
	}
	mm, okm := mounts["memory"]
	pm, okp := mounts["pids"]
	if !okm || !okp {
		return &cgroups{why: "no cgroup v2 with the memory and pids controllers delegated, and no cgroup v1 memory and pids hierarchies"}
	}
	var parents []string
	for _, dir := range []string{filepath.Join(mm, own["memory"]), filepath.Join(pm, own["pids"])} {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o755); err != nil && !os.IsExist(err) {
			for _, q := range parents {
				os.Remove(q)
			}
			return &cgroups{why: fmt.Sprintf("cannot make a cgroup in %s (%v): run synth as root or delegate a cgroup v2 subtree with memory and pids", dir, err)}
		}
		sweepCgroups(dir)
		parents = append(parents, p)
	}
	return &cgroups{version: 1, parents: parents}
}

// cgroupPlaces reads synth's own cgroup in each hierarchy ("2" for v2, else
// the v1 controller name) and where each hierarchy is mounted.
func cgroupPlaces() (own, mounts map[string]string, err error) {
	own, mounts = map[string]string{}, map[string]string{}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, nil, fmt.Errorf("cgroups: %w", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		if f[0] == "0" && f[1] == "" {
			own["2"] = f[2]
			continue
		}
		for _, c := range strings.Split(f[1], ",") {
			own[c] = f[2]
		}
	}
	mi, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, nil, fmt.Errorf("cgroups: %w", err)
	}
	defer mi.Close()
	sc := bufio.NewScanner(mi)
	for sc.Scan() {
		// id parent dev root mountpoint opts ... - fstype source superopts
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		pf, qf := strings.Fields(pre), strings.Fields(post)
		if len(pf) < 5 || len(qf) < 3 || pf[3] != "/" {
			continue
		}
		switch qf[0] {
		case "cgroup2":
			if _, seen := mounts["2"]; !seen {
				mounts["2"] = pf[4]
			}
		case "cgroup":
			for _, o := range strings.Split(qf[2], ",") {
				if o == "memory" || o == "pids" {
					if _, seen := mounts[o]; !seen {
						mounts[o] = pf[4]
					}
				}
			}
		}
	}
	return own, mounts, nil
}

func hasWords(s string, words ...string) bool {
	have := strings.Fields(s)
	for _, w := range words {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			return false
		}
	}
	return true
}

// sweepCgroups removes the directories that synth processes now gone left
// in dir (a kill -9 skips their cleanup), killing what still runs in them.
func sweepCgroups(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		pidStr, _, _ := strings.Cut(strings.TrimPrefix(e.Name(), cgroupPrefix), "-")
		pid, err := strconv.Atoi(pidStr)
		if !e.IsDir() || !strings.HasPrefix(e.Name(), cgroupPrefix) || err != nil || processAlive(pid) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		subs, _ := os.ReadDir(p)
		for _, s := range subs {
			if s.IsDir() {
				(&sandboxCgroup{dirs: []string{filepath.Join(p, s.Name())}}).kill(2 * time.Second)
				os.Remove(filepath.Join(p, s.Name()))
			}
		}
		os.Remove(p)
	}
}

// processAlive reports whether pid is a running process.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// sandboxCgroup is the cgroup of one sandbox, a directory in each
// hierarchy.
type sandboxCgroup struct {
	version  int
	dirs     []string
	g        *cgroups // nil for a leftover being swept
	maxMem   int64    // limits as set
	maxProcs int
}

// create makes the cgroup of one sandbox, limited to memBytes of memory
// (page cache and tmpfs included) and procs processes and threads.
func (g *cgroups) create(memBytes int64, procs int) (*sandboxCgroup, error) {
	if g == nil || g.version == 0 {
		return nil, nil
	}
	name := "sb-" + strconv.FormatInt(g.seq.Add(1), 10)
	c := &sandboxCgroup{version: g.version, g: g}
	for _, p := range g.parents {
		d := filepath.Join(p, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			c.remove()
			return nil, fmt.Errorf("cgroup: %w", err)
		}
		c.dirs = append(c.dirs, d)
	}
	if err := c.setLimits(memBytes, procs); err != nil {
		c.remove()
		return nil, err
	}
	return c, nil
}

// setLimits sets the cgroup's memory and process limits.
func (c *sandboxCgroup) setLimits(memBytes int64, procs int) error {
	if c == nil || (c.maxMem == memBytes && c.maxProcs == procs) {
		return nil
	}
	var files map[string]string
	if c.version == 2 {
		files = map[string]string{"memory.max": strconv.FormatInt(memBytes, 10), "memory.swap.max": "0", "pids.max": strconv.Itoa(procs)}
	} else {
		files = map[string]string{"memory.limit_in_bytes": strconv.FormatInt(memBytes, 10), "pids.max": strconv.Itoa(procs)}
	}
	for _, d := range c.dirs {
		for f, v := range files {
			p := filepath.Join(d, f)
			if _, err := os.Stat(p); err != nil {
				continue // this hierarchy holds the other controller
			}
			if err := os.WriteFile(p, []byte(v), 0); err != nil && f != "memory.swap.max" {
				return fmt.Errorf("cgroup: %s: %w", p, err)
			}
		}
	}
	c.maxMem, c.maxProcs = memBytes, procs
	return nil
}

// add moves pid (and every thread of it) into the cgroup; its children are
// born there.
func (c *sandboxCgroup) add(pid int) error {
	for _, d := range c.dirs {
		if err := os.WriteFile(filepath.Join(d, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
			return fmt.Errorf("cgroup: add pid %d to %s: %w", pid, d, err)
		}
	}
	return nil
}

// procs lists the processes in the cgroup.
func (c *sandboxCgroup) procs() []int {
	var pids []int
	for _, d := range c.dirs {
		b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// kill ends every process in the cgroup and waits up to wait until it is
// empty.
func (c *sandboxCgroup) kill(wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		if c.version == 2 {
			os.WriteFile(filepath.Join(c.dirs[0], "cgroup.kill"), []byte("1"), 0)
		}
		pids := c.procs()
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroup %s: %d processes still running after %s", c.dirs[0], len(pids), wait)
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// remove kills what is left and deletes the cgroup's directories; the
// kernel can take tens of milliseconds to drop a memory cgroup, so that
// happens in the background (close waits for it).
func (c *sandboxCgroup) remove() {
	if c == nil {
		return
	}
	c.kill(2 * time.Second)
	rm := func() {
		for _, d := range c.dirs {
			os.Remove(d)
		}
	}
	if c.g == nil {
		rm()
		return
	}
	c.g.removes.Add(1)
	go func() {
		defer c.g.removes.Done()
		rm()
	}()
}

// close removes synth's own directories (after every sandbox's).
func (g *cgroups) close() {
	if g == nil {
		return
	}
	g.removes.Wait()
	for _, p := range g.parents {
		os.Remove(p)
	}
}

// peak is the most memory the cgroup has held, in bytes (0 when unknown).
func (c *sandboxCgroup) peak() int64 {
	if c == nil {
		return 0
	}
	for _, d := range c.dirs {
		for _, f := range []string{"memory.max_usage_in_bytes", "memory.peak"} {
			if b, err := os.ReadFile(filepath.Join(d, f)); err == nil {
				n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
				return n
			}
		}
	}
	return 0
}
