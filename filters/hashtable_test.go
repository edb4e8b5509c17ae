package filters

import "testing"

// TestNumbered: every hash added keeps the number it got, across growths,
// zero among them; a hash never added is not found.
func TestNumbered(t *testing.T) {
	var tb numbered
	if _, ok := tb.lookup(7); ok {
		t.Fatal("an empty table found a hash")
	}
	hash := func(i int) uint64 { return uint64(i) * 0x100000001b3 } // 0 first; low bits alike
	for i := range 5000 {
		tb.add(hash(i))
	}
	if tb.len() != 5000 || 4*tb.len() > 3*len(tb.keys) {
		t.Fatalf("%d hashes in %d slots", tb.len(), len(tb.keys))
	}
	for i := range 5000 {
		if n, ok := tb.lookup(hash(i)); !ok || n != int32(i) {
			t.Fatalf("hash %d: number %d, %v; want %d", i, n, ok, i)
		}
	}
	for i := 5000; i < 6000; i++ {
		if _, ok := tb.lookup(hash(i)); ok {
			t.Fatalf("hash %d found, never added", i)
		}
	}
}
