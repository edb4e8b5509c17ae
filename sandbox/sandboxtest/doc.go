// Package sandboxtest is the conformance suite every sandbox.Backend must
// pass: the Jupyter-like semantics, statuses, limits and workspace contract
// that rollouts and the verifier rely on.
package sandboxtest
