// Package sourcetest is the conformance suite every sources.Source passes:
// deterministic order, provenance on every item, streaming into a store,
// stopping at put's first error and at cancellation, and a dry-run plan
// that matches what is collected.
package sourcetest
