package sources

import (
	"fmt"
	"strings"
)

// Source kinds, as they appear in specs and in schemas.Source.Kind.
const (
	KindSample  = "sample"
	KindLocal   = "local"
	KindKaggle  = "kaggle"
	KindArxiv   = "arxiv"
	KindPyBench = "pybench"
)

// Spec is a parsed --source value: a kind and its argument.
type Spec struct {
	Kind string // sample, local, kaggle, arxiv
	Arg  string // the folder for local, the search query for kaggle and arxiv; empty for sample
	Raw  string // the spec as given
}

// String returns the spec in its command-line form.
func (s Spec) String() string {
	if s.Arg == "" {
		return s.Kind
	}
	return s.Kind + ":" + s.Arg
}

const specUsage = "want sample, local:PATH, kaggle:QUERY or arxiv:QUERY"

// ParseSpec parses a --source value: sample, local:PATH, kaggle:QUERY or
// arxiv:QUERY. The kind is case-sensitive; the argument is kept verbatim
// (a query may contain colons).
func ParseSpec(spec string) (Spec, error) {
	raw := spec
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return Spec{}, fmt.Errorf("empty --source (%s)", specUsage)
	}
	kind, arg, hasArg := strings.Cut(spec, ":")
	s := Spec{Kind: kind, Arg: arg, Raw: raw}
	switch kind {
	case KindSample:
		if hasArg && arg != "" {
			return Spec{}, fmt.Errorf("--source %s: sample takes no argument (%s)", raw, specUsage)
		}
		s.Arg = ""
	case KindLocal:
		if arg == "" {
			return Spec{}, fmt.Errorf("--source %s: local needs a folder, as in local:./data (%s)", raw, specUsage)
		}
	case KindKaggle, KindArxiv:
		if strings.TrimSpace(arg) == "" {
			return Spec{}, fmt.Errorf("--source %s: %s needs a search query, as in %s:titanic (%s)", raw, kind, kind, specUsage)
		}
		s.Arg = strings.TrimSpace(arg)
	default:
		return Spec{}, fmt.Errorf("unknown source kind %q in --source %s (%s)", kind, raw, specUsage)
	}
	return s, nil
}

// ParseSpecs parses each spec and reports the first bad one.
func ParseSpecs(specs []string) ([]Spec, error) {
	out := make([]Spec, 0, len(specs))
	for _, raw := range specs {
		s, err := ParseSpec(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
