// Package dataset emits the training dataset: Parquet shards (and JSONL on
// request) of schemas.Row, the Hugging Face dataset card and statistics.
//
// The pipeline turns each kept trajectory into a row with RowOf and hands it
// to a Writer, which one goroutine owns; Close publishes the shards
// atomically under their train-0000i-of-0000N names.
package dataset
