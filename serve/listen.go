package serve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Serve answers requests on ln until ctx is done, then shuts down in two
// phases: resets are refused at once ("shutting down"), the requests in
// flight get up to grace to finish (a last step's verification included),
// then every episode left open is torn down without a verdict and Serve
// returns. The recorder, if any, is
// the caller's to close afterwards.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
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
