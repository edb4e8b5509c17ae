// Package sample is the built-in corpus: small, realistic files of every
// supported type, generated deterministically in Go from a seed, so a build
// runs offline and the same seed always gives byte-identical files.
package sample
