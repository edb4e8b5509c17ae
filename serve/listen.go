package serve

import (
	"bytes"
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"time"
)

// maxHeaderBytes caps a request's header: a bearer token and a few short
// fields are all synth serve reads from it.
const maxHeaderBytes = 64 << 10

// httpServer is the server Serve runs: the header and the whole request
// must arrive within ReadTimeout (the header within at most 10 s), before
// a handler reads a byte of a slow body; a WebSocket session sets its own
// deadlines once upgraded. Its own error lines go through logf.
func (s *Server) httpServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: min(10*time.Second, s.cfg.ReadTimeout),
		ReadTimeout:       s.cfg.ReadTimeout,
		IdleTimeout:       2 * s.cfg.ReadTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          log.New(logWriter{s}, "", 0),
	}
}

// logWriter is the http.Server's error log, one logf line per write.
type logWriter struct{ s *Server }

func (w logWriter) Write(p []byte) (int, error) {
	w.s.logf("serve: %s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}

// Serve answers requests on ln until ctx is done, then shuts down in two
// phases: resets are refused at once ("shutting down"), the requests in
// flight get up to grace to finish (a last step's verification included),
// then every episode left open is torn down without a verdict and Serve
// returns. The recorder, if any, is
// the caller's to close afterwards.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	hs := s.httpServer()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		s.Close(context.Background())
		return err
	case <-ctx.Done():
	}
	s.Drain()
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	herr := hs.Shutdown(sctx)
	s.Close(sctx)
	if errors.Is(herr, context.DeadlineExceeded) {
		hs.Close()
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
