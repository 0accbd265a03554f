package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
	"github.com/vaultgraph/vaultgraph/vault"
	"github.com/vaultgraph/vaultgraph/web"
)

// EnvToken holds the default for serve --token.
const EnvToken = "VAULTGRAPH_TOKEN"

// maxRequestBytes bounds one HTTP request body.
const maxRequestBytes = 4 << 20

// serveOptions are serve's flags.
type serveOptions struct {
	watch    vault.WatchOptions
	http     string
	token    string
	readOnly bool
	noWatch  bool
	// followRenames applies the link repairs of renames made outside.
	followRenames bool
	noWeb         bool
	opened        func(url string) // given the app's address once it listens (open)
}

func newServeCmd(g *globals) *cobra.Command {
	var o serveOptions
	c := command("serve", maxArgs(1))
	c.RunE = g.inVault(func(c *cobra.Command) error {
		return g.serve(c.Context(), o)
	})
	f := c.Flags()
	f.StringVar(&o.http, "http", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8765 or :8765, which means loopback) instead of stdio")
	f.StringVar(&o.token, "token", os.Getenv(EnvToken), "with --http: require this bearer token (default $"+EnvToken+")")
	f.BoolVar(&o.readOnly, "read-only", false, "hide the write tools; a write is refused with READ_ONLY")
	g.embedFlags(c)
	f.BoolVar(&o.followRenames, "follow-renames", false, "rewrite the links to a note renamed or moved outside vaultgraph as soon as the rename is found (ambiguous ones wait for repair-links)")
	f.BoolVar(&o.noWatch, "no-watch", false, "do not watch the files (the index is only brought up to date at start)")
	f.BoolVar(&o.noWeb, "no-web", false, "with --http: serve MCP only, not the web app at /")
	f.DurationVar(&o.watch.Poll, "poll", vault.DefaultPoll, "also compare the whole vault with the index this often (negative: never)")
	f.DurationVar(&o.watch.Quiet, "debounce", vault.DefaultQuiet, "wait this long after a file's last event before reading it")
	return c
}

func (g *globals) serve(ctx context.Context, o serveOptions) error {
	// A client that closes its end of stdout or stderr (an MCP client
	// shutting down does) must not kill the server with SIGPIPE on its
	// next log line before the index is closed: writes fail instead.
	signal.Ignore(syscall.SIGPIPE)
	opts, err := g.engineOptions()
	if err != nil {
		return err
	}
	log := g.newLogger(slog.LevelInfo)
	if err := startPprof(ctx, log); err != nil {
		return err
	}
	opts.Logger = log
	opts.ReadOnly = o.readOnly
	opts.IndexMmap = vaultgraph.ServeIndexMmap
	opts.FollowRenames = o.followRenames
	if opts.Embedder, err = g.embedder(); err != nil {
		return err
	}
	restoreGC := loadGC()
	e := vaultgraph.New(opts)
	if err := e.Open(ctx); err != nil {
		restoreGC()
		return err
	}
	defer e.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := heartbeat(ctx, e.IndexPath()); err != nil {
		return err
	}
	// The heartbeat's own clean-up races with the exit; remove it here.
	defer removeHeartbeat(e.IndexPath())
	r := e.Report()
	log.Info("serving", "vault", e.Root(), "index", e.IndexPath(), "notes", r.Notes,
		"parsed", r.Parsed, "unchanged", r.Unchanged, "took", r.Duration.Round(time.Millisecond))

	watchDone := make(chan error, 1)
	if o.noWatch {
		watchDone <- nil
	} else {
		o.watch.Logger = log
		// The watcher's first rescan and the rename index make garbage
		// too: give it back once they are done (see below), and say
		// that the watcher is in place (bench waits for it).
		o.watch.Running = func() {
			debug.FreeOSMemory()
			log.Info("watching", "vault", e.Root())
		}
		go func() { watchDone <- e.Watch(ctx, o.watch) }()
	}
	tools := &mcp.Tools{Engine: e}
	// Commands run meanwhile hand their reads to this server (handoff.go).
	listenHandoff(ctx, &handoffServer{tools: tools, root: e.Root(), embed: g.embedKey(), log: log}, e.IndexPath())
	s := mcp.NewServer(tools, mcp.ServerOptions{Version: version, ReadOnly: o.readOnly, Logger: log})
	serveMemory(ctx, e, log, restoreGC)
	if o.http != "" {
		var site http.Handler
		if !o.noWeb {
			site = web.New(e, web.Options{Logger: log, Guard: func(h http.Handler) http.Handler { return requireToken(o.token, h) }})
		}
		err = serveHTTP(ctx, s, site, o, log)
	} else {
		err = serveStdio(ctx, s, g, log)
	}
	cancel()
	if werr := <-watchDone; werr != nil && err == nil {
		err = werr
	}
	log.Info("stopped", "vault", e.Root())
	return err
}

// serveStdio speaks MCP on stdin/stdout until ctx ends or stdin closes.
func serveStdio(ctx context.Context, s *server.MCPServer, g *globals, log *slog.Logger) error {
	std := server.NewStdioServer(s)
	std.SetErrorLogger(slog.NewLogLogger(log.Handler(), slog.LevelError))
	err := std.Listen(ctx, g.stdin, g.stdout)
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, os.ErrClosed) || errors.Is(err, syscall.EPIPE) || strings.Contains(err.Error(), "EOF") {
		return nil
	}
	return fmt.Errorf("stdio: %w", err)
}

// serveHTTP serves streamable HTTP at /mcp, and site (when not nil) at /.
func serveHTTP(ctx context.Context, s *server.MCPServer, site http.Handler, o serveOptions, log *slog.Logger) error {
	addr, err := loopbackDefault(o.http)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	h := server.NewStreamableHTTPServer(s)
	mux.Handle("/mcp", checkOrigin(requireToken(o.token, limitBody(h, maxRequestBytes))))
	if site != nil {
		mux.Handle("/", checkOrigin(site))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", addr, err)
	}
	// Requests live in reqCtx, so that streams held open for notifications
	// (subscriptions/listen) can be ended at shutdown.
	reqCtx, endRequests := context.WithCancel(context.Background())
	defer endRequests()
	srv := &http.Server{Handler: checkHost(ln.Addr(), mux), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return reqCtx }}
	log.Info("MCP over HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "token", o.token != "")
	if site != nil {
		log.Info("web app", "url", "http://"+ln.Addr().String()+"/")
	}
	if o.opened != nil {
		o.opened("http://" + ln.Addr().String() + "/")
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() && o.token == "" {
		log.Warn("serving beyond loopback without --token: anyone who can reach this address can read the vault")
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// End the sessions and the streams first: a client's stream held open
	// for notifications would keep Shutdown waiting until its deadline.
	_ = h.Shutdown(shutdown)
	endRequests()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("http shutdown: %w", err)
	}
	return nil
}

// loopbackDefault binds a bare port ("8765" or ":8765") to 127.0.0.1.
func loopbackDefault(addr string) (string, error) {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("%w: --http %q: use HOST:PORT or PORT", vaultgraph.ErrInvalid, addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// requireToken answers 401 unless the request carries the bearer token
// (compared in constant time). An empty token lets every request in.
func requireToken(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	// Digests of equal length: ConstantTimeCompare of the raw strings
	// would return early on a length mismatch and leak the token's length.
	want := sha256.Sum256([]byte("Bearer " + token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := sha256.Sum256([]byte(r.Header.Get("Authorization")))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="vaultgraph"`)
			http.Error(w, "401 Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limitBody answers 413 to a request whose body is over max bytes (read
// before next sees it, so that the client learns why).
func limitBody(next http.Handler, max int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			tooLarge(w, max)
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			body, err := io.ReadAll(io.LimitReader(r.Body, max+1))
			if err != nil {
				http.Error(w, "400 Bad Request: reading the body: "+err.Error(), http.StatusBadRequest)
				return
			}
			if int64(len(body)) > max {
				tooLarge(w, max)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	})
}

func tooLarge(w http.ResponseWriter, max int64) {
	w.Header().Set("Connection", "close")
	http.Error(w, fmt.Sprintf("413 Request Entity Too Large: a request body may hold at most %d bytes", max), http.StatusRequestEntityTooLarge)
}

// checkHost refuses (403) a request to a server listening on loopback
// whose Host header names another host: a page of another site whose name
// was rebound to 127.0.0.1 (DNS rebinding) sends its own name.
func checkHost(addr net.Addr, next http.Handler) http.Handler {
	host, _, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host // port optional
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if !loopbackHost(strings.TrimSuffix(strings.Trim(host, "[]"), ".")) {
			http.Error(w, fmt.Sprintf("403 Forbidden: host %q is not this loopback server's", r.Host), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether name is localhost or a loopback address.
func loopbackHost(name string) bool {
	ip := net.ParseIP(name)
	return strings.EqualFold(name, "localhost") || ip != nil && ip.IsLoopback()
}

// checkOrigin refuses (403) a browser request whose Origin is neither a
// loopback address nor the server's own host, as the MCP specification
// asks against DNS rebinding; requests without an Origin pass.
func checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" {
			u, err := url.Parse(origin)
			if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) && !loopbackHost(u.Hostname()) {
				http.Error(w, fmt.Sprintf("403 Forbidden: origin %q may not use this server", origin), http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// A running server marks its index with a heartbeat file next to it,
// touched every heartbeatEvery; a command that finds a fresh one trusts
// the index instead of scanning the vault itself. A file older than
// heartbeatStale is left over from a server that died.
const (
	heartbeatEvery = 5 * time.Second
	heartbeatStale = 3 * heartbeatEvery
)

func heartbeatPath(index string) string { return index + ".serve" }

// serverRunning reports whether a server is keeping index current.
func serverRunning(index string) bool {
	fi, err := os.Stat(heartbeatPath(index))
	return err == nil && time.Since(fi.ModTime()) < heartbeatStale
}

// heartbeat marks index as served until ctx ends. Servers on one index
// share the mark: each keeps it fresh (writing it again if another removed
// it), and only the one whose process ID it holds removes it.
func heartbeat(ctx context.Context, index string) error {
	p := heartbeatPath(index)
	mark := fmt.Appendf(nil, "%d\n", os.Getpid())
	if err := os.WriteFile(p, mark, 0o644); err != nil {
		return fmt.Errorf("mark index as served: %w", err)
	}
	go func() {
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				removeHeartbeat(index)
				return
			case now := <-t.C:
				if err := os.Chtimes(p, now, now); errors.Is(err, fs.ErrNotExist) {
					_ = os.WriteFile(p, mark, 0o644)
				}
			}
		}
	}()
	return nil
}

// removeHeartbeat removes index's mark if this process wrote it last.
func removeHeartbeat(index string) {
	p := heartbeatPath(index)
	if b, err := os.ReadFile(p); err == nil && strings.TrimSpace(string(b)) == strconv.Itoa(os.Getpid()) {
		_ = os.Remove(p)
	}
}

// EnvPprof, when set to a loopback address such as 127.0.0.1:6060, makes
// serve answer Go's profiles at http://ADDR/debug/pprof/ (development).
const EnvPprof = "VAULTGRAPH_PPROF"

// profileRate samples one block or mutex event in this many (EnvPprof).
const profileRate = 5

// startPprof serves the profiles on $VAULTGRAPH_PPROF, if set, until ctx
// ends; it refuses an address that is not loopback (profiles show notes).
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
	context.AfterFunc(ctx, func() { _ = srv.Close() })
	log.Info("profiles", "url", "http://"+addr+"/debug/pprof/")
	return nil
}
