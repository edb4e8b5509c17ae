package filters

// Config is the filters section of synth.yaml.
type Config struct {
	// InfraRetries is how often a rollout that ended in an infrastructure
	// error (sandbox crash, teacher error) is run again.
	InfraRetries int `yaml:"infra_retries"`
}
