package checks

import _ "embed"

// Library is the Python checks library. Verify sends it into the sandbox;
// TestsPy copies it into the exported tests.py. Its entry points are
// run_checks(checks, answer, messages) and trajectory_answer(trajectory).
//
//go:embed checks.py
var Library string
