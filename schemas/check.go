package schemas

// Check kinds: a closed set. Each check runs inside the sandbox after a
// rollout, against the final workspace and the final answer.
const (
	CheckAnswer = "answer" // the final answer text
	CheckFile   = "file"   // a file under the workspace
	CheckTable  = "table"  // a csv/xlsx table
	CheckImage  = "image"
	CheckAudio  = "audio"
	CheckPickle = "pickle"
	CheckText   = "text"   // a text file's content
	CheckPython = "python" // asserts over answer, messages and the workspace
)

// CheckKinds lists every check kind.
var CheckKinds = []string{CheckAnswer, CheckFile, CheckTable, CheckImage, CheckAudio, CheckPickle, CheckText, CheckPython}

// Check is one verifiable condition of a task. It is a flat record: Kind
// selects which of the other fields apply (see the checks package for the
// fields each kind accepts and their validation). The Python checks library
// receives the same JSON object.
type Check struct {
	Kind string `json:"kind"`

	// answer, text
	ContainsAll []string     `json:"contains_all,omitempty"`
	ContainsAny []string     `json:"contains_any,omitempty"`
	NoneOf      []string     `json:"none_of,omitempty"` // wrong options the text must not mention
	Regex       string       `json:"regex,omitempty"`
	Number      *NumberMatch `json:"number,omitempty"`

	// file, table, image, audio, pickle, text
	Path     string `json:"path,omitempty"`
	Exists   *bool  `json:"exists,omitempty"`
	MinBytes int64  `json:"min_bytes,omitempty"`
	Type     string `json:"type,omitempty"`

	// table
	Rows           *int     `json:"rows,omitempty"`
	ColumnsInclude []string `json:"columns_include,omitempty"`
	NoDuplicates   bool     `json:"no_duplicates,omitempty"`
	NoNulls        bool     `json:"no_nulls,omitempty"`
	NoIQROutliers  []string `json:"no_iqr_outliers,omitempty"` // columns
	SortedBy       *SortKey `json:"sorted_by,omitempty"`

	// image
	Width        *int          `json:"width,omitempty"`
	Height       *int          `json:"height,omitempty"`
	Mode         string        `json:"mode,omitempty"`
	Compare      *ImageCompare `json:"compare,omitempty"`
	BrighterThan string        `json:"brighter_than,omitempty"`
	DarkerThan   string        `json:"darker_than,omitempty"`
	SharperThan  string        `json:"sharper_than,omitempty"`

	// audio
	Duration    *Range `json:"duration,omitempty"` // seconds
	LouderThan  string `json:"louder_than,omitempty"`
	QuieterThan string `json:"quieter_than,omitempty"`
	ShorterThan string `json:"shorter_than,omitempty"`

	// pickle
	HasMethod string `json:"has_method,omitempty"`

	// python
	Code string `json:"code,omitempty"`
}

// NumberMatch asks for a number in the answer within a tolerance.
type NumberMatch struct {
	Value  float64 `json:"value"`
	RelTol float64 `json:"rel_tol,omitempty"`
	AbsTol float64 `json:"abs_tol,omitempty"`
	// Label names the value asked, as a regular expression of words
	// (median|中位数): in an answer to one number, the last number a label
	// names ("the median of Ozone is 31.5", 中位数 31.5) is the value it
	// states, whatever counts come after ("共 37 个缺失值").
	Label string `json:"label,omitempty"`
}

// SortKey is a column a table must be sorted by.
type SortKey struct {
	Column     string `json:"column"`
	Descending bool   `json:"descending,omitempty"`
}

// ImageCompare compares an output image with a reference after undoing a
// stated transform.
type ImageCompare struct {
	Ref           string  `json:"ref"`
	Transform     string  `json:"transform,omitempty"` // rotate90, flip_h, grayscale, crop:x,y,w,h, …
	MinSimilarity float64 `json:"min_similarity"`
}

// Range is a closed interval; a zero bound is open.
type Range struct {
	Min float64 `json:"min,omitempty"`
	Max float64 `json:"max,omitempty"`
}
