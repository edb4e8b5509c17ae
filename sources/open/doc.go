// Package open makes the source a --source spec names, for every kind
// (sample, local, kaggle, arxiv), from the sources section of synth.yaml.
// It lives apart from package sources so that sources imports none of its
// implementations.
package open
