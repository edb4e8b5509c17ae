// Package bench is the benchmark as a product: the split that keeps it
// apart from training data, its PyBench-compatible layout on disk, and the
// scoring that synth eval reports.
package bench
