package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/vaultgraph/vaultgraph/mcp"
)

// A running server answers the CLI's one-shot reads over a unix socket
// next to its index (index.db.sock), so that a command need not load the
// index itself: it sends the tool, its parameters and its presentation,
// and prints the answer the server rendered. The socket has the access
// rules of the index file it serves (whoever may read the index may ask),
// and a command that finds no server there, or one that declines the
// request (another vault, another embedding model, another protocol),
// reads the index itself.

// handoffVersion is the protocol version both sides must speak.
const handoffVersion = 1

// maxHandoffBytes bounds one request (the CLI's parameters) and one answer.
const maxHandoffBytes = 64 << 20

// handoffRequest is what a command sends: one JSON line.
type handoffRequest struct {
	V      int             `json:"v"`
	Vault  string          `json:"vault"`
	Tool   string          `json:"tool"`
	Embed  string          `json:"embed,omitempty"`
	Params json.RawMessage `json:"params"`
	Pres   mcp.Presentation
	// Flags is Pres.Flags, which Presentation does not encode.
	Flags bool `json:"flags"`
}

// handoffAnswer is the server's reply: the rendered text, an error with
// its SPEC code, or why it declines.
type handoffAnswer struct {
	Text    string `json:"text,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	Decline string `json:"decline,omitempty"`
}

func socketPath(index string) string { return index + ".sock" }

// handoffServer answers the CLI's reads for one engine.
type handoffServer struct {
	tools *mcp.Tools
	root  string
	embed string // the server's --embed and --embed-url
	log   *slog.Logger
}

// listenHandoff answers reads on index's socket until ctx ends, unless
// another live server does (a stale socket is replaced). It never fails
// the server: without the socket, commands read the index themselves.
func listenHandoff(ctx context.Context, h *handoffServer, index string) {
	p := socketPath(index)
	if c, err := net.DialTimeout("unix", p, time.Second); err == nil {
		c.Close()
		h.log.Info("another server answers commands on this index", "socket", p)
		return
	}
	_ = os.Remove(p)
	ln, err := net.Listen("unix", p)
	if err != nil {
		h.log.Info("commands will read the index themselves: no socket", "socket", p, "err", err)
		return
	}
	if err := os.Chmod(p, socketMode(index)); err != nil {
		ln.Close()
		h.log.Info("commands will read the index themselves: socket mode", "socket", p, "err", err)
		return
	}
	var wg sync.WaitGroup
	context.AfterFunc(ctx, func() { ln.Close() }) // removes the socket file
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				wg.Wait()
				return
			}
			wg.Go(func() { h.serveConn(ctx, c) })
		}
	}()
}

// socketMode gives the socket the access of the index file: who may read
// the index may connect (read and write); 0600 if the index cannot be read.
func socketMode(index string) os.FileMode {
	fi, err := os.Stat(index)
	if err != nil {
		return 0o600
	}
	var m os.FileMode
	for _, r := range []os.FileMode{0o400, 0o040, 0o004} {
		if fi.Mode().Perm()&r != 0 {
			m |= r | r>>1
		}
	}
	return m | 0o600
}

// serveConn answers the one request of a connection.
func (h *handoffServer) serveConn(ctx context.Context, c net.Conn) {
	defer c.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var req handoffRequest
	if err := json.NewDecoder(io.LimitReader(c, maxHandoffBytes)).Decode(&req); err != nil {
		h.log.Debug("command request", "err", err)
		return
	}
	_ = json.NewEncoder(c).Encode(h.answer(ctx, req))
}

// answer runs req's tool and renders its answer as the command would.
func (h *handoffServer) answer(ctx context.Context, req handoffRequest) handoffAnswer {
	call, embeds := mcp.ReadCall(req.Tool)
	switch {
	case req.V != handoffVersion:
		return handoffAnswer{Decline: fmt.Sprintf("protocol %d, not %d", req.V, handoffVersion)}
	case call == nil:
		return handoffAnswer{Decline: "no tool " + req.Tool}
	case req.Vault != h.root:
		return handoffAnswer{Decline: "the server serves " + h.root}
	case embeds && req.Embed != h.embed: // a search answers only for its own model
		return handoffAnswer{Decline: "the server searches with --embed " + h.embed}
	}
	req.Pres.Flags = req.Flags
	v, err := call(ctx, h.tools, req.Params)
	if err == nil {
		var text string
		if text, err = mcp.Render(req.Tool, v, req.Pres); err == nil {
			return handoffAnswer{Text: text}
		}
	}
	return handoffAnswer{Code: mcp.Code(err), Message: mcp.Message(err)}
}

// remoteError is an error the server answered, reported as if the
// command had met it itself (its message, its code's sentinel).
type remoteError struct{ code, msg string }

func (e *remoteError) Error() string { return e.msg }

// Is maps the SPEC code back to the Engine's sentinel.
func (e *remoteError) Is(target error) bool {
	s := mcp.Sentinel(e.code)
	return s != nil && target == s
}

// errDeclined says no server took the request: read the index directly.
var errDeclined = errors.New("no server took the request")

// handOff asks the server on index's socket to answer tool; it returns
// errDeclined (wrapped) when there is none or it declines.
func handOff(ctx context.Context, index, root, tool, embed string, params any, pres mcp.Presentation) (string, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return "", fmt.Errorf("%w: %v", errDeclined, err)
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", socketPath(index))
	if err != nil {
		return "", fmt.Errorf("%w: %v", errDeclined, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	req := handoffRequest{V: handoffVersion, Vault: root, Tool: tool, Embed: embed, Params: raw, Pres: pres, Flags: pres.Flags}
	if err := json.NewEncoder(c).Encode(req); err != nil {
		return "", fmt.Errorf("%w: %v", errDeclined, err)
	}
	var ans handoffAnswer
	if err := json.NewDecoder(io.LimitReader(c, maxHandoffBytes)).Decode(&ans); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		// The server went away mid-answer: a read is safe to do again.
		return "", fmt.Errorf("%w: %v", errDeclined, err)
	}
	switch {
	case ans.Decline != "":
		return "", fmt.Errorf("%w: %s", errDeclined, ans.Decline)
	case ans.Code != "":
		return "", &remoteError{code: ans.Code, msg: ans.Message}
	}
	return ans.Text, nil
}

// vaultRoot is the absolute, symlink-free vault folder, as the engine has it.
func vaultRoot(dir string) string {
	root, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return root
}
