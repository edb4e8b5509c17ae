package llm

// Config is the llm section of synth.yaml: the endpoints synth talks to.
type Config struct {
	Endpoints []Endpoint `yaml:"endpoints"`
}

// Endpoint is one OpenAI-compatible server.
type Endpoint struct {
	BaseURL string `yaml:"base_url"`
	Model   string `yaml:"model"`
	// KeyEnv names the environment variable that holds the API key; the key
	// itself is never written to any file synth writes.
	KeyEnv string `yaml:"key_env"`
}
