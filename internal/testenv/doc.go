// Package testenv stops a test whose tool is missing: on a developer's
// machine the test is skipped and says which tool and how to install it;
// under CI=true it fails with the same message, because make test installs
// every tool a test needs. A test checks its tools first, before any costly
// work, never half-way.
package testenv
