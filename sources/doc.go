// Package sources finds input files — the built-in corpus, local folders,
// Kaggle, arXiv, PyBench — types them by content and stores them by hash.
package sources
