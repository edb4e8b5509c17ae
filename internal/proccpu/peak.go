package proccpu

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// PeakRSS is the peak resident memory of process pid (0: this process) in
// bytes, the kernel's VmHWM in /proc/PID/status. It is the process's own
// peak, without the processes it starts, which getrusage's children
// figures would fold in. VmHWM only grows while the process lives.
func PeakRSS(pid int) (int64, error) {
	path := "/proc/self/status"
	if pid != 0 {
		path = fmt.Sprintf("/proc/%d/status", pid)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, ok := vmHWM(b)
	if !ok {
		return 0, fmt.Errorf("%s: %w", path, errNoHWM)
	}
	return n, nil
}

var errNoHWM = errors.New("no VmHWM line in kB")

// vmHWM reads the "VmHWM:   1234 kB" line of a status file, in bytes.
func vmHWM(status []byte) (int64, bool) {
	for line := range bytes.SplitSeq(status, []byte("\n")) {
		v, ok := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !ok {
			continue
		}
		num, ok := bytes.CutSuffix(bytes.TrimSpace(v), []byte(" kB"))
		if !ok {
			return 0, false
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSpace(num)), 10, 64)
		if err != nil || kb < 0 || kb > 1<<40 {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}
