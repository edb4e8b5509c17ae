package dataset

import (
	"cmp"
	"slices"

	"synth/schemas"
)

// Stats are the statistics of a dataset in the form of the PyBench paper's
// data table: trajectories, turns in buckets and average tokens per
// trajectory, overall and per category, plus pass counts when the rows say
// whether they passed. The zero value is empty and ready to Add to.
type Stats struct {
	Tally
	// Categories holds one tally per category, PyBench's five first, in
	// their order, then others by name; rows without a category are under "".
	Categories []CategoryTally `json:"categories"`
	// TokensCounted says where the token figures come from: one of the
	// Tokens… constants, or "mixed".
	TokensCounted string `json:"tokens_counted,omitempty"`
	// VerdictClasses counts the rows of each verdict class, when the rows
	// have a verdict_class column.
	VerdictClasses map[string]int64 `json:"verdict_classes,omitempty"`
}

// Sources of token figures (Stats.TokensCounted).
const (
	TokensFromColumn = "tokens column: teacher usage, else an offline o200k_base count"
	TokensOffline    = "offline o200k_base count of the messages"
)

// CategoryTally is the tally of one category.
type CategoryTally struct {
	Category string `json:"category"`
	Tally
}

// Tally counts trajectories, their turns and tokens, and how many passed.
type Tally struct {
	Trajectories int64       `json:"trajectories"`
	Turns        TurnBuckets `json:"turns"`
	AvgTurns     float64     `json:"avg_turns"`
	AvgTokens    float64     `json:"avg_tokens"`
	// Judged counts the rows that say whether they passed; Passed those
	// that did. PassRate is Passed/Judged, absent when nothing was judged.
	Judged   int64    `json:"judged,omitempty"`
	Passed   int64    `json:"passed,omitempty"`
	PassRate *float64 `json:"pass_rate,omitempty"`
	// TotalTurns and TotalTokens are the sums behind the averages.
	TotalTurns  int64 `json:"total_turns"`
	TotalTokens int64 `json:"total_tokens"`
}

// TurnBuckets counts trajectories by their assistant turns.
type TurnBuckets struct {
	UpTo3  int64 `json:"<=3"`
	From4  int64 `json:"4-6"`
	From7  int64 `json:"7-9"`
	From10 int64 `json:">=10"`
}

// PyInstructTurnProfile is the share of PyInstruct's trajectories with at
// most 3, 4-6, 7-9 and at least 10 assistant turns, from the PyBench
// paper's data table.
var PyInstructTurnProfile = [4]float64{0.40, 0.53, 0.05, 0.02}

// TurnProfile is the share of t's trajectories in each turn bucket, in the
// order of PyInstructTurnProfile; zeros when t is empty.
func TurnProfile(t *Tally) [4]float64 {
	if t.Trajectories == 0 {
		return [4]float64{}
	}
	n := float64(t.Trajectories)
	b := t.Turns
	return [4]float64{float64(b.UpTo3) / n, float64(b.From4) / n, float64(b.From7) / n, float64(b.From10) / n}
}

// Sample is what Stats needs of one trajectory.
type Sample struct {
	Category string
	Turns    int
	Tokens   int64
	Passed   *bool // nil when the source does not say
}

// Add counts one trajectory.
func (s *Stats) Add(x Sample) {
	s.Tally.add(x)
	i := slices.IndexFunc(s.Categories, func(c CategoryTally) bool { return c.Category == x.Category })
	if i < 0 {
		s.Categories = append(s.Categories, CategoryTally{Category: x.Category})
		slices.SortStableFunc(s.Categories, func(a, b CategoryTally) int { return compareCategories(a.Category, b.Category) })
		i = slices.IndexFunc(s.Categories, func(c CategoryTally) bool { return c.Category == x.Category })
	}
	s.Categories[i].add(x)
}

// AddRow counts a dataset row by its columns.
func (s *Stats) AddRow(r *schemas.Row) {
	passed := r.Passed
	s.Add(Sample{Category: r.Category, Turns: int(r.Turns), Tokens: r.Tokens, Passed: &passed})
	if r.VerdictClass != "" {
		if s.VerdictClasses == nil {
			s.VerdictClasses = map[string]int64{}
		}
		s.VerdictClasses[r.VerdictClass]++
	}
}

// Merge adds the counts of o to s.
func (s *Stats) Merge(o *Stats) {
	s.Tally.merge(&o.Tally)
	for _, c := range o.Categories {
		i := slices.IndexFunc(s.Categories, func(x CategoryTally) bool { return x.Category == c.Category })
		if i < 0 {
			s.Categories = append(s.Categories, CategoryTally{Category: c.Category})
			slices.SortStableFunc(s.Categories, func(a, b CategoryTally) int { return compareCategories(a.Category, b.Category) })
			i = slices.IndexFunc(s.Categories, func(x CategoryTally) bool { return x.Category == c.Category })
		}
		s.Categories[i].merge(&c.Tally)
	}
	for c, n := range o.VerdictClasses {
		if s.VerdictClasses == nil {
			s.VerdictClasses = map[string]int64{}
		}
		s.VerdictClasses[c] += n
	}
	if s.TokensCounted == "" {
		s.TokensCounted = o.TokensCounted
	} else if o.TokensCounted != "" && o.TokensCounted != s.TokensCounted {
		s.TokensCounted = "mixed"
	}
}

func (t *Tally) add(x Sample) {
	t.Trajectories++
	switch {
	case x.Turns <= 3:
		t.Turns.UpTo3++
	case x.Turns <= 6:
		t.Turns.From4++
	case x.Turns <= 9:
		t.Turns.From7++
	default:
		t.Turns.From10++
	}
	t.TotalTurns += int64(x.Turns)
	t.TotalTokens += x.Tokens
	if x.Passed != nil {
		t.Judged++
		if *x.Passed {
			t.Passed++
		}
	}
	t.derive()
}

func (t *Tally) merge(o *Tally) {
	t.Trajectories += o.Trajectories
	t.Turns.UpTo3 += o.Turns.UpTo3
	t.Turns.From4 += o.Turns.From4
	t.Turns.From7 += o.Turns.From7
	t.Turns.From10 += o.Turns.From10
	t.TotalTurns += o.TotalTurns
	t.TotalTokens += o.TotalTokens
	t.Judged += o.Judged
	t.Passed += o.Passed
	t.derive()
}

func (t *Tally) derive() {
	if t.Trajectories > 0 {
		t.AvgTurns = float64(t.TotalTurns) / float64(t.Trajectories)
		t.AvgTokens = float64(t.TotalTokens) / float64(t.Trajectories)
	}
	if t.Judged > 0 {
		r := float64(t.Passed) / float64(t.Judged)
		t.PassRate = &r
	}
}

// compareCategories orders PyBench's five categories first, in their
// order, then the others by name.
func compareCategories(a, b string) int {
	ia, ib := slices.Index(schemas.Categories, a), slices.Index(schemas.Categories, b)
	if ia < 0 {
		ia = len(schemas.Categories)
	}
	if ib < 0 {
		ib = len(schemas.Categories)
	}
	return cmp.Or(cmp.Compare(ia, ib), cmp.Compare(a, b))
}
