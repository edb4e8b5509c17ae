package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"synth/schemas"
)

// Earlier is a benchmark an earlier build emitted, which a fresh split
// must avoid: none of its input files, and no query near one of its own.
type Earlier struct {
	Dir   string
	Hash  string // its card's content hash; "" when the card has none
	Tasks []schemas.Task
}

var cardHash = regexp.MustCompile("content hash[^`]*`([0-9a-f]{64})`")

// LoadEarlier reads an earlier benchmark folder: its tasks (tasks.jsonl)
// and the content hash its card records.
func LoadEarlier(dir string) (Earlier, error) {
	tasks, err := Load(dir)
	if err != nil {
		return Earlier{}, err
	}
	e := Earlier{Dir: dir, Tasks: tasks}
	if b, err := os.ReadFile(filepath.Join(dir, CardFile)); err == nil {
		if m := cardHash.FindSubmatch(b); m != nil {
			e.Hash = string(m[1])
		}
	}
	return e, nil
}

// Describe is the line a card gives an earlier benchmark it avoided.
func (e Earlier) Describe() string {
	name, _ := filepath.Abs(e.Dir)
	if e.Hash == "" {
		return fmt.Sprintf("%s (%d tasks)", name, len(e.Tasks))
	}
	return fmt.Sprintf("%s (%d tasks, content hash `%s`)", name, len(e.Tasks), e.Hash)
}
