// Package config is synth.yaml: every setting of a build (Config), read
// strictly (an unknown key is an error that names the nearest one), checked
// (Validate), hashed over the settings that shape a run's results (Hash,
// which run.json and the dataset card record), and the commented starter
// file synth init writes (Starter). Imports the packages whose sections it
// holds (sources, generators, agent, llm, sandbox, filters, dataset) and
// rollout, for how many rollouts run at once.
package config

//go:generate go test -run TestConfigReference -update .
