package main

import (
	"cmp"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/vault"
)

func newOpenCmd(g *globals) *cobra.Command {
	var port int
	var token string
	var noOpen bool
	so := serveOptions{readOnly: true}
	c := command("open", maxArgs(1))
	c.RunE = g.inVault(func(c *cobra.Command) error {
		so.http, so.token = fmt.Sprintf("127.0.0.1:%d", port), cmp.Or(token, rand.Text())
		so.watch.Poll, so.watch.Quiet = vault.DefaultPoll, vault.DefaultQuiet
		so.opened = func(url string) {
			url += "#token=" + so.token
			fmt.Fprintln(g.stdout, url)
			if !noOpen {
				openBrowser(url)
			}
		}
		return g.serve(c.Context(), so)
	})
	f := c.Flags()
	f.IntVar(&port, "port", 0, "loopback port to listen on (0: a free one)")
	f.StringVar(&token, "token", os.Getenv(EnvToken), "the token the app asks for (default $"+EnvToken+", else a new random one)")
	f.BoolVar(&noOpen, "no-browser", false, "print the address only; do not start a browser")
	f.BoolVar(&so.noWatch, "no-watch", false, "do not watch the files")
	g.embedFlags(c)
	return c
}

// openBrowser starts the desktop's browser on url, if it can (not an error).
func openBrowser(url string) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return
		}
		cmd = exec.Command("xdg-open", url)
	}
	if cmd.Start() == nil {
		go func() { _ = cmd.Wait() }()
	}
}
