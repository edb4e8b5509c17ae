// Package checks is the library of task checks: their validation in Go, the
// Python that runs them inside the sandbox, and their compilation into
// PyBench-style unit tests.
package checks
