package proccpu

import (
	"os"
	"runtime"
	"testing"
)

func TestVmHWM(t *testing.T) {
	cases := []struct {
		name   string
		status string
		want   int64
		ok     bool
	}{
		{"status file", "Name:\tsynth\nVmPeak:\t  900 kB\nVmHWM:\t    5120 kB\nVmRSS:\t 4096 kB\n", 5120 << 10, true},
		{"last line without newline", "VmRSS:\t1 kB\nVmHWM:\t7 kB", 7 << 10, true},
		{"no VmHWM", "VmRSS:\t1 kB\n", 0, false},
		{"not in kB", "VmHWM:\t7 MB\n", 0, false},
		{"not a number", "VmHWM:\tlots kB\n", 0, false},
		{"negative", "VmHWM:\t-7 kB\n", 0, false},
		{"empty", "", 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := vmHWM([]byte(tc.status))
			if got != tc.want || ok != tc.ok {
				t.Errorf("vmHWM = %d, %v; want %d, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestPeakRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("PeakRSS reads /proc, which only Linux has")
	}
	self, err := PeakRSS(0)
	if err != nil {
		t.Fatal(err)
	}
	byPid, err := PeakRSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	// A Go test binary holds at least a MiB; the peak does not shrink.
	if self < 1<<20 || byPid < self {
		t.Errorf("PeakRSS(0) = %d, PeakRSS(pid) = %d", self, byPid)
	}
	if _, err := PeakRSS(-1); err == nil {
		t.Error("PeakRSS(-1): no error")
	}
}

func FuzzVmHWM(f *testing.F) {
	f.Add([]byte("VmHWM:\t5120 kB\n"))
	f.Add([]byte("VmHWM: 99999999999999999999 kB"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if n, ok := vmHWM(b); n < 0 || !ok && n != 0 {
			t.Errorf("vmHWM = %d, %v", n, ok)
		}
	})
}
