// Package proccpu measures what processes cost, for benchmarks: the CPU
// time of this process and the processes below it (the sandbox's cost in
// CPU rather than in wall time), and a process's peak resident memory.
package proccpu
