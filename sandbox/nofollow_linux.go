package sandbox

import "syscall"

// syscallNoFollow makes opening an artifact fail on a symlink swapped in
// after the directory walk.
const syscallNoFollow = syscall.O_NOFOLLOW
