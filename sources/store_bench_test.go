package sources

import (
	"bytes"
	"fmt"
	"testing"

	"synth/schemas"
)

// BenchmarkStorePut measures hashing, typing, previewing and placing a
// 1 MiB CSV (distinct content each time).
func BenchmarkStorePut(b *testing.B) {
	st, err := OpenStore(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	var rows bytes.Buffer
	rows.WriteString("id,name,value\n")
	for i := 0; rows.Len() < 1<<20; i++ {
		fmt.Fprintf(&rows, "%d,name%d,%d.5\n", i, i%97, i)
	}
	body := rows.Bytes()
	b.SetBytes(int64(len(body)))
	for i := 0; b.Loop(); i++ {
		data := append(fmt.Appendf(nil, "id,name,value\n-%d,x,1\n", i), body[len("id,name,value\n"):]...)
		if _, err := st.Put(Item{Name: "t.csv", Body: bytes.NewReader(data), Source: schemas.Source{Kind: "local", Ref: "t.csv"}}); err != nil {
			b.Fatal(err)
		}
	}
}
