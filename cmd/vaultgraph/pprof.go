package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"time"
)

// EnvPprof, when set to a loopback address such as 127.0.0.1:6060, makes
// serve answer Go's profiles (CPU, heap, goroutine, block and mutex) at
// http://ADDR/debug/pprof/ while it runs: how the load figures in README
// were profiled. It is for development, never set by default.
const EnvPprof = "VAULTGRAPH_PPROF"

// profileRate is the block and mutex profile sampling served with
// EnvPprof: one event in this many.
const profileRate = 5

// startPprof serves the profiles on $VAULTGRAPH_PPROF until ctx ends; it
// does nothing when the variable is empty, and refuses an address that is
// not loopback (profiles show note text).
func startPprof(ctx context.Context, log *slog.Logger) error {
	addr := os.Getenv(EnvPprof)
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.Join(errors.New(EnvPprof+": want HOST:PORT on loopback"), err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return errors.New(EnvPprof + ": " + addr + " is not a loopback address")
	}
	runtime.SetBlockProfileRate(profileRate)
	runtime.SetMutexProfileFraction(profileRate)
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return errors.Join(errors.New(EnvPprof), err)
	}
	go func() { _ = srv.Serve(l) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	log.Info("profiles", "url", "http://"+addr+"/debug/pprof/")
	return nil
}
