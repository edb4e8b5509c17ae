// Package template writes tasks from files offline: each template reads its
// input file (real column names, categories, sizes, words), asks for one
// thing the way a person would, in English or Chinese, and carries a
// reference solution and the checks that decide a rollout.
//
// Templates cover PyBench's five categories; Templates lists them with the
// Python modules they need, and Validate proves a task's checks through
// package proof: its reference solution must pass, and, where defined, a
// mutated solution (Mutant) and every adversary must fail.
package template
