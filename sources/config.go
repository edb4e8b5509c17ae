package sources

// Config is the sources section of synth.yaml.
type Config struct {
	// Specs are the sources to collect from: sample, local:PATH,
	// kaggle:QUERY, arxiv:QUERY.
	Specs []string `yaml:"specs"`
	// MaxFileBytes skips larger files; MaxFiles stops a source after that many.
	MaxFileBytes string `yaml:"max_file_bytes"`
	MaxFiles     int    `yaml:"max_files"`
	// Licenses, if set, is an allow-list of license ids (CC0-1.0, MIT, …).
	Licenses []string `yaml:"licenses"`
}
