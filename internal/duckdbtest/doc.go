// Package duckdbtest runs SQL with DuckDB from tests, as an independent
// reader of the Parquet files synth writes.
//
// DuckDB comes from npm (@duckdb/node-api, pinned in the repository's
// package.json; make deps installs it with npm install --no-save). Query runs
// query.mjs with node; when node or the module is missing the test is skipped
// with a message that says which and how to install it, or fails under
// CI=true (see internal/testenv). Need checks them up front.
package duckdbtest
