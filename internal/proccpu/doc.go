// Package proccpu measures the CPU time of this process and the processes
// below it, for benchmarks that count the sandbox's cost in CPU rather
// than in wall time.
package proccpu
