package llm

import (
	"encoding/json"
	"fmt"
	"time"
)

// Config's JSON (run.json) writes its durations as Go duration text
// ("1m30s"), as synth.yaml spells them, and reads that text or a number of
// nanoseconds.

// MarshalJSON implements json.Marshaler.
func (c Config) MarshalJSON() ([]byte, error) {
	type plain Config
	return json.Marshal(struct {
		plain
		Timeout      string `json:"timeout"`
		BreakerPause string `json:"breaker_pause,omitempty"`
	}{plain(c), c.Timeout.String(), durationText(c.BreakerPause)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *Config) UnmarshalJSON(b []byte) error {
	type plain Config
	var v struct {
		plain
		Timeout      jsonDuration `json:"timeout"`
		BreakerPause jsonDuration `json:"breaker_pause"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = Config(v.plain)
	c.Timeout, c.BreakerPause = time.Duration(v.Timeout), time.Duration(v.BreakerPause)
	return nil
}

func durationText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

// jsonDuration is a duration as text ("90s") or nanoseconds.
type jsonDuration time.Duration

func (d *jsonDuration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n int64
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("a duration: want text such as \"90s\" or nanoseconds, got %s", b)
		}
		*d = jsonDuration(n)
		return nil
	}
	if s == "" {
		*d = 0
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = jsonDuration(v)
	return nil
}
