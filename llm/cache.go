package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// cache is the content-addressed response cache: the key is the hash of
// the request body as sent (model, messages, sampling fields, extras) and a
// salt that tells apart samples of the same prompt. A value is the reply
// body. Writes go to a temporary file and are renamed, so a reader never
// sees half a reply.
type cache struct {
	dir string
}

func cacheKey(salt string, body []byte) string {
	h := sha256.New()
	h.Write([]byte("synth-llm-cache/1\x00"))
	h.Write([]byte(salt))
	h.Write([]byte{0})
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

func (c *cache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

func (c *cache) get(key string) ([]byte, bool) {
	b, err := os.ReadFile(c.path(key))
	return b, err == nil && len(b) > 0
}

// put stores a reply; a failure only costs a future request, so it is not
// reported.
func (c *cache) put(key string, b []byte) {
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(p), key+".*.tmp")
	if err != nil {
		return
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return
	}
	if os.Rename(f.Name(), p) != nil {
		os.Remove(f.Name())
	}
}
