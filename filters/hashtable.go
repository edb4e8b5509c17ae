package filters

// numbered maps 64-bit hashes to the numbers 0, 1, 2, ... in the order the
// hashes were first added: an open-addressing table of 12-byte slots, at
// most three quarters full, about 21 bytes a hash where a Go map spends
// about 38. Dedup keeps one entry per kept trajectory, a million in a
// large build.
type numbered struct {
	keys []uint64 // 0: an empty slot (a zero hash is stored as 1)
	nums []int32
	n    int
}

// lookup returns the number of hash h, if it was added.
func (t *numbered) lookup(h uint64) (int32, bool) {
	if len(t.keys) == 0 {
		return 0, false
	}
	h = max(h, 1)
	for i := t.slot(h); ; i = (i + 1) & (len(t.keys) - 1) {
		switch t.keys[i] {
		case h:
			return t.nums[i], true
		case 0:
			return 0, false
		}
	}
}

// add gives h the next number; h must not have one.
func (t *numbered) add(h uint64) {
	if 4*(t.n+1) > 3*len(t.keys) {
		t.grow()
	}
	t.put(max(h, 1), int32(t.n))
	t.n++
}

func (t *numbered) len() int { return t.n }

func (t *numbered) slot(h uint64) int {
	// The hashes are FNV's: mix them so that their low bits spread.
	return int(splitmix(h) & uint64(len(t.keys)-1))
}

func (t *numbered) put(h uint64, num int32) {
	i := t.slot(h)
	for t.keys[i] != 0 {
		i = (i + 1) & (len(t.keys) - 1)
	}
	t.keys[i], t.nums[i] = h, num
}

func (t *numbered) grow() {
	keys, nums := t.keys, t.nums
	size := max(64, 2*len(keys))
	t.keys, t.nums = make([]uint64, size), make([]int32, size)
	for i, k := range keys {
		if k != 0 {
			t.put(k, nums[i])
		}
	}
}
