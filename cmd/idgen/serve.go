package main

// idgen serve: the generators of --gen over HTTP (package serve) until
// SIGTERM or SIGINT, which drains the requests in flight, closes every
// generator (leases released, segment tails given back) and exits 0.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/idgen/idgen/serve"
)

// drainFor bounds how long SIGTERM waits for the requests in flight.
const drainFor = 30 * time.Second

func cmdServe(o *opts, stderr io.Writer) error {
	if len(o.args) > 0 || o.hasCfg {
		return usageError{"serve takes its generators as --gen NAME=CONFIG or --gen-file FILE, no arguments or -c"}
	}
	listen := o.listen
	if listen == "" {
		listen = "127.0.0.1:8080"
	}
	var tokens *serve.Tokens
	if o.tokens != "" {
		t, err := serve.ReadTokens(o.tokens)
		if err != nil {
			return err
		}
		tokens = t
	} else if !loopback(listen) {
		return usageError{fmt.Sprintf("--listen %s is not a loopback address: give --token-file, or listen on 127.0.0.1 or [::1]", listen)}
	}
	var gens []serve.Gen
	if o.genFile != "" {
		fromFile, err := serve.ReadGens(o.genFile)
		if err != nil {
			return err
		}
		gens = fromFile
	}
	for _, g := range o.gens {
		sg, err := serve.ParseGen(g)
		if err != nil {
			return usageError{err.Error()}
		}
		gens = append(gens, sg)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	srv, err := serve.New(gens, tokens)
	if err != nil {
		ln.Close()
		return err
	}
	return serveUntilSignal(ln, srv, stderr)
}

// serveUntilSignal serves until a signal, then drains and closes.
func serveUntilSignal(ln net.Listener, srv *serve.Server, stderr io.Writer) error {
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sig)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	fmt.Fprintf(stderr, "idgen serve: listening on %s (%s)\n", ln.Addr(), strings.Join(srv.Names(), ", "))
	select {
	case s := <-sig:
		fmt.Fprintf(stderr, "idgen serve: %v: draining requests\n", s)
	case err := <-done:
		srv.Close()
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), drainFor)
	defer cancel()
	shutErr := hs.Shutdown(ctx)
	closeErr := srv.Close()
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	if shutErr != nil {
		return fmt.Errorf("requests still in flight after %v: %w", drainFor, shutErr)
	}
	if closeErr != nil {
		return closeErr
	}
	fmt.Fprintln(stderr, "idgen serve: every generator closed")
	return nil
}

// loopback says whether host:port listens on a loopback address only.
func loopback(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
