// Testreport runs go test with -json and reports what it proved: go test's
// usual per-package ok and FAIL lines with the output of every failing test,
// the list of every skipped test with its reason, the slowest tests, and a
// closing line of the form "N passed, N failed, N skipped".
//
// Usage:
//
//	go run ./internal/testreport [-skips FILE] [-events FILE] [-in FILE] [-slowest N] -- [go test flags and packages]
//
// A skip that the allow-list (-skips, one "package test reason" per line)
// does not name is a failure under CI=true. The exit status is 0 when
// nothing failed, 1 otherwise, 2 for a usage error.
package main
