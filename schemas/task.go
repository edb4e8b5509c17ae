package schemas

// The five task categories of PyBench.
const (
	CategoryData     = "data_analysis" // data analysis and charts
	CategoryText     = "text_analysis"
	CategoryMedia    = "image_audio" // image and audio editing
	CategoryMath     = "complex_math"
	CategorySoftware = "software_web"
)

// Categories lists the five categories in PyBench's order.
var Categories = []string{CategoryData, CategoryText, CategoryMedia, CategoryMath, CategorySoftware}

// Task is one query over zero or more input files, with the checks that
// decide whether a rollout solved it.
type Task struct {
	ID          string     `json:"id"`
	Index       string     `json:"index,omitempty"` // the task's number in a benchmark (PyBench's index)
	Category    string     `json:"category"`
	Subcategory string     `json:"subcategory"`
	Files       []TaskFile `json:"files"`
	Query       string     `json:"query"`
	Lang        string     `json:"lang"` // en, zh
	Checks      []Check    `json:"checks"`
	Reference   *Reference `json:"reference,omitempty"`
	Generator   string     `json:"generator"`          // template:csv.dedup@1, llm:gpt-4o, pybench
	Outputs     []string   `json:"outputs,omitempty"`  // paths the query asks for, e.g. output/3.csv
	Requires    []string   `json:"requires,omitempty"` // Python modules the task needs beyond the core
	// Steps is the number of dependent steps a composed task chains (clean,
	// filter, join, aggregate …: each step's result feeds the next, and a
	// solution that skips one fails); 0 for a one-step task.
	Steps int `json:"steps,omitempty"`
}

// TaskFile is an input file of a task: the stored file and the name it has
// under ./data/ in the workspace.
type TaskFile struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type,omitempty"`
}

// Reference is a known solution: the steps a solver takes and its final answer.
type Reference struct {
	Steps  []RefStep `json:"steps"`
	Answer string    `json:"answer"`
}

// RefStep is one turn of a reference solution.
type RefStep struct {
	Thought string `json:"thought"`
	Code    string `json:"code"`
}

// DataPaths returns the workspace-relative paths of the task's inputs, as a
// query shows them: ./data/a.csv.
func (t *Task) DataPaths() []string {
	paths := make([]string, len(t.Files))
	for i, f := range t.Files {
		paths[i] = "./data/" + f.Name
	}
	return paths
}

// FirstLinkSteps are the reference steps of a composed task's first link
// alone: its load, the chain's first step and its report (a composed
// reference is load, one cell per step, report). nil for a task that is
// not composed or whose reference does not have that shape. The composed
// task's skip proof and the weak solver both play them.
func (t *Task) FirstLinkSteps() []RefStep {
	r := t.Reference
	if t.Steps <= 0 || r == nil || len(r.Steps) != t.Steps+2 {
		return nil
	}
	return []RefStep{r.Steps[0], r.Steps[1], r.Steps[len(r.Steps)-1]}
}
