package pipeline

import (
	"fmt"

	"synth/sources"
	"synth/sources/local"
	"synth/sources/sample"
)

// openSource makes the source a spec names.
func openSource(raw string, cfg Config) (sources.Source, error) {
	spec, err := sources.ParseSpec(raw)
	if err != nil {
		return nil, err
	}
	switch spec.Kind {
	case sources.KindSample:
		return sample.New(cfg.Seed), nil
	case sources.KindLocal:
		return local.New(spec.Arg, local.Options{}), nil
	}
	return nil, fmt.Errorf("--source %s: the %s source is not available in synth build yet (use sample or local:PATH)", raw, spec.Kind)
}
