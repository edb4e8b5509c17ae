// Package pybench imports a PyBench checkout (data/meta/task.json, the
// input files under data/, data/unit_test/tests.py) as synth tasks: each
// test_task_N becomes a python check, extracted with Python's ast, files
// keep their names, and categories map to synth's five. Broken tests are
// reported as Problems, not hidden.
package pybench
