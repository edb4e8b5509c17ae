package config

import _ "embed"

// Starter is a commented synth.yaml that shows every setting with its
// default; synth init writes it.
//
//go:embed starter.yaml
var Starter string
