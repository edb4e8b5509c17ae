package sources

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize parses a byte count: "1000", "512KB", "512KiB", "1.5GB", "2g".
// Units are decimal (KB = 1000) unless they carry an i (KiB = 1024); a
// bare letter (k, m, g, t) is binary. Empty is 0.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	if t == "" {
		return 0, nil
	}
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = strings.TrimSpace(t[:i]), strings.TrimSpace(t[i:])
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("size %q: want a byte count such as 500MB or 2GiB", s)
	}
	mult := map[string]float64{
		"": 1, "b": 1,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
	}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("size %q: unknown unit %q (want B, KB, MB, GB, KiB, MiB, GiB)", s, unit)
	}
	return int64(v * mult), nil
}
