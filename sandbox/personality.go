package sandbox

import (
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// addrNoRandomize is the personality flag ADDR_NO_RANDOMIZE, and
// personalityQuery the argument that only reads the current personality.
const (
	addrNoRandomize  = 0x0040000
	personalityQuery = 0xffffffff
)

// startFixedAddresses starts cmd with address-space randomisation off, as
// setarch -R does, so that the zygote's fixed_addresses (driver.py) finds
// the flag set and need not re-execute Python to set it (a twentieth of a
// second of every cold start). The flag is set on this goroutine's thread
// alone, locked for the purpose, and restored before it is unlocked; the Go
// runtime makes no thread from a locked one, so no other process synth
// starts inherits it. Where the kernel refuses the flag, cmd starts as it
// would have, and the zygote tries for itself.
func startFixedAddresses(cmd *exec.Cmd) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cur, _, errno := unix.RawSyscall(unix.SYS_PERSONALITY, personalityQuery, 0, 0)
	if errno != 0 || cur&addrNoRandomize != 0 {
		return cmd.Start()
	}
	if _, _, errno := unix.RawSyscall(unix.SYS_PERSONALITY, cur|addrNoRandomize, 0, 0); errno != 0 {
		return cmd.Start()
	}
	defer unix.RawSyscall(unix.SYS_PERSONALITY, cur, 0, 0)
	return cmd.Start()
}
