package writer

// Options configure the LLM query writer. As config they are the tasks.llm
// section of synth.yaml.
type Options struct {
	// Model asks this llm model; empty: the client's default model.
	Model string `yaml:"model" json:"model"`
	// PerFile is how many queries to draft per file (and language);
	// default 2.
	PerFile int `yaml:"per_file" json:"per_file"`
	// Langs are the query languages: en (default), zh.
	Langs []string `yaml:"langs" json:"langs"`
	// Temperature of the writer; unset: 0.8. 0 is sent as 0.
	Temperature *float64 `yaml:"temperature" json:"temperature"`
	// Critic adds a review turn that checks each query against its keywords
	// and the file's content and asks for one revision when it fails.
	Critic bool `yaml:"critic" json:"critic"`
	// Hacker has the writer's model try each proven draft as a hacker: it
	// sees the task and its checks and answers with a final answer and
	// files meant to pass without solving the task; an exploit that passes
	// every check drops the draft (adversary llm_hacker).
	Hacker bool `yaml:"hacker" json:"hacker,omitempty"`
	// JSONMode asks the server for a JSON object reply (response_format);
	// off by default, since not every server supports it.
	JSONMode bool `yaml:"json_mode" json:"json_mode"`
	// MaxTokens is sent as max_tokens with every writer request; default
	// 2048.
	MaxTokens int `yaml:"max_tokens" json:"max_tokens"`
	// PreviewBudget is how many characters of the file's preview (first
	// rows, start of the text) a prompt shows at most; default 2000.
	PreviewBudget int `yaml:"preview_budget" json:"preview_budget"`
	// DupThreshold is the word-trigram Jaccard similarity at or above which
	// a query is a near-duplicate of an earlier one for the same file;
	// default 0.5.
	DupThreshold float64 `yaml:"dup_threshold" json:"dup_threshold"`
	// Concurrency is how many files are worked on at once; default the
	// client's slots for the model.
	Concurrency int `yaml:"concurrency" json:"concurrency"`
	// Dictionary replaces the task types per file group (table, text,
	// image, audio); empty: DefaultDictionary.
	Dictionary map[string][]TaskType `yaml:"dictionary" json:"dictionary"`
}

func (o Options) withDefaults() Options {
	if o.PerFile <= 0 {
		o.PerFile = 2
	}
	if len(o.Langs) == 0 {
		o.Langs = []string{"en"}
	}
	if o.Temperature == nil {
		t := 0.8
		o.Temperature = &t
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = 2048
	}
	if o.PreviewBudget <= 0 {
		o.PreviewBudget = 2000
	}
	if o.DupThreshold <= 0 {
		o.DupThreshold = 0.5
	}
	if len(o.Dictionary) == 0 {
		o.Dictionary = DefaultDictionary
	}
	return o
}
