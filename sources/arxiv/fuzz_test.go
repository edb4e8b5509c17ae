package arxiv

import (
	"bytes"
	"testing"
)

// FuzzParseFeed feeds an API response, untrusted bytes off the network, to
// the feed reader and every entry to the paper it makes.
func FuzzParseFeed(f *testing.F) {
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2401.00001v1</id><title>T</title><summary>S</summary><link title="pdf" href="http://arxiv.org/pdf/2401.00001v1"/></entry></feed>`))
	f.Add([]byte(`<feed><entry><id>http://arxiv.org/api/errors#x</id><summary>bad query</summary></entry></feed>`))
	f.Add([]byte(`<!DOCTYPE x [<!ENTITY a "aaaa">]><feed>&a;</feed>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fd, err := parseFeed(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, e := range fd.Entries {
			e.paper()
		}
	})
}
