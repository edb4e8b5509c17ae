package filters

import "math"

// minHasher computes MinHash signatures of shingle sets and the LSH band
// keys of a signature.
type minHasher struct {
	seeds []uint64
	bands int
	rows  int
}

func newMinHasher(perms int, threshold float64) *minHasher {
	m := &minHasher{seeds: make([]uint64, perms)}
	s := uint64(0x9e3779b97f4a7c15)
	for i := range m.seeds {
		s = splitmix(s + uint64(i))
		m.seeds[i] = s
	}
	m.bands, m.rows = lshBands(perms, threshold)
	return m
}

// lshBands chooses b bands of r rows (b*r <= perms) whose S-curve
// threshold (1/b)^(1/r) is the largest one still at or below 80% of the
// Jaccard threshold, so near-duplicates rarely miss a shared bucket; the
// candidates are then confirmed by their exact Jaccard similarity.
func lshBands(perms int, threshold float64) (bands, rows int) {
	bands, rows = perms, 1
	best := -1.0
	for r := 1; r <= perms; r++ {
		b := perms / r
		t := math.Pow(1/float64(b), 1/float64(r))
		if t <= 0.8*threshold && t > best {
			best, bands, rows = t, b, r
		}
	}
	return bands, rows
}

// signature returns the MinHash signature of a shingle set.
func (m *minHasher) signature(shingles []uint64) []uint64 {
	sig := make([]uint64, len(m.seeds))
	for i := range sig {
		sig[i] = math.MaxUint64
	}
	for _, sh := range shingles {
		for i, seed := range m.seeds {
			if h := splitmix(sh ^ seed); h < sig[i] {
				sig[i] = h
			}
		}
	}
	return sig
}

// bandKeys returns one bucket key per band of sig, mixed with scope so only
// items of the same scope share a bucket.
func (m *minHasher) bandKeys(sig []uint64, scope uint64) []uint64 {
	keys := make([]uint64, m.bands)
	for b := range keys {
		h := splitmix(scope ^ uint64(b+1)*0xbf58476d1ce4e5b9)
		for _, v := range sig[b*m.rows : (b+1)*m.rows] {
			h = splitmix(h ^ v)
		}
		keys[b] = h
	}
	return keys
}

// splitmix is the SplitMix64 finaliser: a fast, well-mixed 64-bit hash.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// jaccard returns |a ∩ b| / |a ∪ b| of two sorted, distinct sets.
func jaccard(a, b []uint64) float64 {
	inter := intersect(a, b)
	union := len(a) + len(b) - inter
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

// intersect returns |a ∩ b| of two sorted, distinct sets.
func intersect(a, b []uint64) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}
