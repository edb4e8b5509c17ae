package proccpu

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTick is the unit of the times in /proc/PID/stat (USER_HZ, 100 on
// every Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

// Tree is the CPU time (user and system) used so far by this process and
// every process below it: the ones still running (their own time and that
// of the children they reaped) and the ones this process reaped. For a
// sandbox backend it is the infrastructure's CPU: synth, bubblewrap, the
// zygote and every interpreter, waiting, running or gone. The difference
// of two readings over n rollouts, divided by n, is the cost of one. Work
// the kernel does in its own threads (freeing a namespace after its last
// process ended) is not in it.
func Tree() time.Duration {
	var self, reaped syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &reaped)
	total := tv(self.Utime) + tv(self.Stime) + tv(reaped.Utime) + tv(reaped.Stime)
	me := os.Getpid()
	stats := procStats()
	for pid, st := range stats {
		if pid != me && descends(stats, pid, me) {
			total += st.cpu
		}
	}
	return total
}

func tv(t syscall.Timeval) time.Duration {
	return time.Duration(t.Sec)*time.Second + time.Duration(t.Usec)*time.Microsecond
}

// procStat is what TreeCPU needs of /proc/PID/stat.
type procStat struct {
	ppid int
	cpu  time.Duration // utime + stime + cutime + cstime
}

// procStats reads every process's parent and CPU times.
func procStats() map[int]procStat {
	stats := map[int]procStat{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ... utime stime cutime cstime (fields 14-17);
		// comm may hold spaces, so cut at the last ')'.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 15 {
			continue
		}
		var st procStat
		st.ppid, _ = strconv.Atoi(f[1])
		for _, v := range f[11:15] {
			n, _ := strconv.ParseInt(v, 10, 64)
			st.cpu += time.Duration(n) * clockTick
		}
		stats[pid] = st
	}
	return stats
}

// descends reports whether pid is below root in the process tree.
func descends(stats map[int]procStat, pid, root int) bool {
	for q, hops := stats[pid].ppid, 0; q > 1 && hops < 64; q, hops = stats[q].ppid, hops+1 {
		if q == root {
			return true
		}
	}
	return false
}
