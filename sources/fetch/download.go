package fetch

import (
	"context"
	"crypto/md5"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// maxResumes bounds how often one Download resumes, whatever progress
// each attempt made.
const maxResumes = 50

// Download is a file to fetch to disk.
type Download struct {
	// Request is the first request; it may redirect to storage on another
	// host. Resumes within the run go to the URL the redirect reached,
	// without credentials when that is another host.
	Request
	// Path receives the bytes. With Resume set, a file already there is
	// the start of the content and only the rest is asked for (Range);
	// otherwise it is overwritten.
	Path   string
	Resume bool
	// Progress, when set, is called about every ProgressEvery while bytes
	// arrive, and once at the end.
	Progress func(Progress)
}

// Progress is how far a download has come.
type Progress struct {
	Bytes int64   // on disk, including a resumed start
	Total int64   // -1: unknown
	Rate  float64 // bytes per second over this run's transfer
	Done  bool
}

// Result says how a download ended.
type Result struct {
	Size     int64
	Resumes  int    // Range requests sent after a cut within this run
	Verified string // "md5" or "crc32c" when storage sent a hash and it matched; "" when none was sent
	// AlreadyComplete: the file at Path was whole before this run (the
	// server answered 416 to a Range from its end).
	AlreadyComplete bool
	// Restarts counts resumes the server answered with the whole content
	// because it changed since the partial file began (If-Range).
	Restarts int
}

// HashMismatchError is a download whose content does not match the hash
// storage announced. The file is removed.
type HashMismatchError struct {
	Algo, Want, Got string
}

func (e *HashMismatchError) Error() string {
	return fmt.Sprintf("%s of the content is %s, storage announced %s (file removed)", e.Algo, e.Got, e.Want)
}

// Download fetches d to d.Path. A body cut short, or stalled past the idle
// timeout, is resumed with Range up to c.Retries times in a row without
// progress (with backoff), and at most 50 times in all. A file already
// complete is recognised (416 to a Range from its end). When storage sends
// X-Goog-Hash, the file's MD5 (else CRC32C) is checked against it.
//
// Every resume sends If-Range with the validator of the answer that began
// the file (its strong ETag, else its Last-Modified), kept beside it in
// <Path>.validator so that a resume in a later run sends it too: when the
// content changed meanwhile, the server sends it whole and the file starts
// over, rather than splicing two versions. A partial file without a
// validator (the server sent none) is resumed as it is.
func (c *Client) Download(ctx context.Context, d Download) (Result, error) {
	var res Result
	var have int64
	if st, err := os.Stat(d.Path); err == nil && d.Resume {
		have = st.Size()
	}
	validator := ""
	if have > 0 {
		validator = readValidator(d.Path)
	}
	req := d.Request
	origHost := hostOf(d.URL)
	total := int64(-1)
	var want googHash
	fails := 0
	best := int64(-1) // the most bytes any attempt reached: progress is beating it
	start := time.Now()
	moved := int64(0)
	for {
		r := req
		if have > 0 {
			r.Header = r.Header.Clone()
			if r.Header == nil {
				r.Header = http.Header{}
			}
			r.Header.Set("Range", fmt.Sprintf("bytes=%d-", have))
			if validator != "" {
				r.Header.Set("If-Range", validator)
			}
		}
		resp, err := c.Do(ctx, r)
		var se *StatusError
		switch {
		case err == nil:
		case errors.As(err, &se) && se.Code == http.StatusRequestedRangeNotSatisfiable && have > 0:
			if n := rangeTotal(se.Header.Get("Content-Range")); n == have || n < 0 && total < 0 {
				want.merge(parseGoogHash(se.Header))
				res.AlreadyComplete = res.Resumes == 0
				return c.finish(d, res, have, want, start, moved)
			}
			have = 0 // the file is longer than the content: start over
			continue
		case errors.As(err, &se) && req.URL != d.URL && se.Code/100 == 4:
			req = d.Request // a storage link that expired: ask the service again
			continue
		default:
			return res, err
		}
		if u := resp.Request.URL.String(); u != req.URL {
			req = Request{URL: u, NoAuth: hostOf(u) != origHost || req.NoAuth}
		}
		want.merge(parseGoogHash(resp.Header))
		appendTo := have > 0 && resp.StatusCode == http.StatusPartialContent
		if appendTo {
			if s := rangeStart(resp.Header.Get("Content-Range")); s != have {
				resp.Body.Close()
				return res, fmt.Errorf("%s: asked for bytes from %d, got a range from %d", redact(req.URL), have, s)
			}
			if n := rangeTotal(resp.Header.Get("Content-Range")); n >= 0 {
				total = n
			}
		} else {
			if have > 0 && validator != "" {
				res.Restarts++ // the content changed since the part began
			}
			have = 0
			if resp.ContentLength >= 0 {
				total = resp.ContentLength
			}
			validator = validatorOf(resp.Header)
			writeValidator(d.Path, validator)
		}
		n, err := c.copyTo(d, resp.Body, appendTo, have, total, start, &moved)
		resp.Body.Close()
		have += n
		if total >= 0 && have < total {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			err = fmt.Errorf("truncated: got %d of %d bytes: %w", have, total, err)
		}
		if err == nil && total >= 0 && have > total {
			return res, fmt.Errorf("%s: got %d bytes, more than the %d announced", redact(d.URL), have, total)
		}
		if err == nil {
			return c.finish(d, res, have, want, start, moved)
		}
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if have > best {
			best, fails = have, 0
		}
		fails++
		if fails > max(c.Retries, 0) || res.Resumes >= maxResumes {
			return res, fmt.Errorf("%s: %w (after %d resumes; the partial file stays for the next run)", redact(d.URL), err, res.Resumes)
		}
		res.Resumes++
		if err := c.policy().Wait(ctx, fails, time.Time{}, err); err != nil {
			return res, err
		}
	}
}

// copyTo writes body to d.Path (appending or from the start) and reports
// progress.
func (c *Client) copyTo(d Download, body io.Reader, appendTo bool, have, total int64, start time.Time, moved *int64) (int64, error) {
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendTo {
		flags = os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(d.Path, flags, 0o644)
	if err != nil {
		return 0, err
	}
	every := c.ProgressEvery
	if every <= 0 {
		every = 10 * time.Second
	}
	w := &progressWriter{w: f, every: every, last: time.Now(), report: func(n int64) {
		if d.Progress != nil {
			d.Progress(Progress{Bytes: have + n, Total: total, Rate: bytesPerSecond(*moved+n, start)})
		}
	}}
	n, err := io.Copy(w, body)
	*moved += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

func (c *Client) finish(d Download, res Result, size int64, want googHash, start time.Time, moved int64) (Result, error) {
	res.Size = size
	os.Remove(validatorPath(d.Path))
	if algo, sum, ok := want.pick(); ok {
		got, err := fileHash(d.Path, algo)
		if err != nil {
			return res, err
		}
		if got != sum {
			os.Remove(d.Path)
			return res, fmt.Errorf("%s: %w", redact(d.URL), &HashMismatchError{Algo: algo, Want: sum, Got: got})
		}
		res.Verified = algo
	}
	if d.Progress != nil {
		d.Progress(Progress{Bytes: size, Total: size, Rate: bytesPerSecond(moved, start), Done: true})
	}
	return res, nil
}

func bytesPerSecond(n int64, start time.Time) float64 {
	s := time.Since(start).Seconds()
	if s <= 0 {
		return 0
	}
	return float64(n) / s
}

type progressWriter struct {
	w      io.Writer
	n      int64
	every  time.Duration
	last   time.Time
	report func(int64)
}

func (p *progressWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.n += int64(n)
	if time.Since(p.last) >= p.every {
		p.last = time.Now()
		p.report(p.n)
	}
	return n, err
}

// validatorOf is what If-Range can send back for an answer: its ETag when
// strong (If-Range takes no weak one), else its Last-Modified; "" when it
// has neither.
func validatorOf(h http.Header) string {
	if e := strings.TrimSpace(h.Get("ETag")); e != "" && !strings.HasPrefix(e, "W/") {
		return e
	}
	return strings.TrimSpace(h.Get("Last-Modified"))
}

func validatorPath(path string) string { return path + ".validator" }

// readValidator reads the validator kept beside a partial file; "" when
// there is none.
func readValidator(path string) string {
	b, err := os.ReadFile(validatorPath(path))
	if err != nil || len(b) > 1024 {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// writeValidator keeps v beside the partial file, or removes an old one
// when the new answer has none. A failure costs only a safe restart later.
func writeValidator(path, v string) {
	if v == "" || strings.ContainsAny(v, "\r\n") {
		os.Remove(validatorPath(path))
		return
	}
	_ = os.WriteFile(validatorPath(path), []byte(v+"\n"), 0o644)
}

// googHash is the X-Goog-Hash of the whole object (Cloud Storage sends it
// with full and ranged answers alike).
type googHash struct{ md5, crc32c string }

func parseGoogHash(h http.Header) googHash {
	var g googHash
	for _, v := range h.Values("X-Goog-Hash") {
		for part := range strings.SplitSeq(v, ",") {
			k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
			if !ok {
				continue
			}
			switch strings.ToLower(k) {
			case "md5":
				g.md5 = val
			case "crc32c":
				g.crc32c = val
			}
		}
	}
	return g
}

func (g *googHash) merge(o googHash) {
	if o.md5 != "" {
		g.md5 = o.md5
	}
	if o.crc32c != "" {
		g.crc32c = o.crc32c
	}
}

// pick returns the stronger hash storage sent.
func (g googHash) pick() (algo, sum string, ok bool) {
	switch {
	case g.md5 != "":
		return "md5", g.md5, true
	case g.crc32c != "":
		return "crc32c", g.crc32c, true
	}
	return "", "", false
}

// fileHash is the base64 hash of a file, as X-Goog-Hash writes it.
func fileHash(path, algo string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var h hash.Hash
	if algo == "md5" {
		h = md5.New()
	} else {
		h = crc32.New(crc32.MakeTable(crc32.Castagnoli))
	}
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(h.Sum(nil)), nil
}

// rangeStart and rangeTotal read "bytes START-END/TOTAL" and "bytes */TOTAL"
// (-1: absent or unknown).
func rangeStart(cr string) int64 {
	s, ok := strings.CutPrefix(cr, "bytes ")
	if !ok {
		return -1
	}
	a, _, ok := strings.Cut(s, "-")
	if !ok {
		return -1
	}
	n, err := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	if err != nil {
		return -1
	}
	return n
}

func rangeTotal(cr string) int64 {
	_, t, ok := strings.Cut(cr, "/")
	if !ok {
		return -1
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil {
		return -1
	}
	return n
}

func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Host
}
