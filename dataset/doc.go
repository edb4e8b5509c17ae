// Package dataset emits the training dataset: Parquet shards, the dataset
// card and statistics.
package dataset
