package sandbox

// Config is the sandbox section of synth.yaml.
type Config struct {
	// Python is the interpreter to run; empty: the locked environment
	// (pyenv.Sandbox), which New requires to be built.
	Python string `yaml:"python" json:"python"`
	// Isolation: auto (use every layer available), strict (refuse to run
	// without them), off (a plain process; for debugging only).
	Isolation string `yaml:"isolation" json:"isolation"`
	// Slots is how many sandboxes may be open at once.
	Slots int `yaml:"slots" json:"slots"`
	// Spares is how many forked interpreters wait, ready to be bound to a
	// sandbox, so that Open does not pay for a fork; 0 means 2, -1 none.
	Spares int `yaml:"spares" json:"spares"`
	// Preload lists modules the warm interpreter imports once.
	Preload []string   `yaml:"preload" json:"preload"`
	Limits  LimitsYAML `yaml:"limits" json:"limits"`
	// Artifacts bound what the host collects from one rollout's output/.
	Artifacts ArtifactsYAML `yaml:"artifacts" json:"artifacts"`
	// Residents are the modules the zygote holds resident (see Resident),
	// in this order; names must be unique. Whoever builds the backend gives
	// them (the checks library: checks.Resident); a config file cannot, and
	// they are no part of the config's hash.
	Residents []Resident `yaml:"-" json:"-"`
}

// ArtifactsYAML is CollectLimits as written in config.
type ArtifactsYAML struct {
	MaxFiles int    `yaml:"max_files" json:"max_files"`
	MaxBytes string `yaml:"max_bytes" json:"max_bytes"`
	MaxDepth int    `yaml:"max_depth" json:"max_depth"`
	MaxPath  int    `yaml:"max_path" json:"max_path"`
}

// LimitsYAML is Limits as written in config: durations as "30s", sizes as
// "2GiB".
type LimitsYAML struct {
	CellTimeout string `yaml:"cell_timeout" json:"cell_timeout"`
	CPUTime     string `yaml:"cpu_time" json:"cpu_time"`
	Memory      string `yaml:"memory" json:"memory"`
	FileSize    string `yaml:"file_size" json:"file_size"`
	OpenFiles   int    `yaml:"open_files" json:"open_files"` // open file descriptors of one process (RLIMIT_NOFILE)
	Processes   int    `yaml:"processes" json:"processes"`
	Output      string `yaml:"output" json:"output"`
	Workspace   string `yaml:"workspace" json:"workspace"`
	Inodes      int    `yaml:"inodes" json:"inodes"`
	Tmp         string `yaml:"tmp" json:"tmp"`
}
