package main

import (
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/vault"
)

func newServeCmd(g *globals) *cobra.Command {
	var wo vault.WatchOptions
	c := &cobra.Command{
		Use:   "serve [VAULT]",
		Short: "Index the vault and keep the index in step with its files",
		Long: `Index the vault (incrementally), then watch it: every edit, rename, move
or delete made by Obsidian or any editor reaches the graph and the SQLite
index within a second. Commands run meanwhile read the served index
instead of scanning the vault. Logs go to stderr. Stops cleanly on
Ctrl-C / SIGTERM with the index consistent.

The MCP server (stdio and HTTP) is not in this release yet: serve only
indexes and watches.`,
		Example: `  vaultgraph serve ~/Notes
  vaultgraph serve --vault ~/Notes --poll 30s`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, a []string) error {
			if len(a) == 1 {
				g.vault = a[0]
			}
			opts, err := g.engineOptions()
			if err != nil {
				return err
			}
			log := g.serveLogger()
			opts.Logger = log
			e := vaultgraph.New(opts)
			ctx := c.Context()
			if err := e.Open(ctx); err != nil {
				return err
			}
			defer e.Close()
			if err := heartbeat(ctx, e.IndexPath()); err != nil {
				return err
			}
			r := e.Report()
			log.Info("serving", "vault", e.Root(), "index", e.IndexPath(), "notes", r.Notes,
				"parsed", r.Parsed, "unchanged", r.Unchanged, "took", r.Duration)
			wo.Logger = log
			err = e.Watch(ctx, wo)
			log.Info("stopped", "vault", e.Root())
			return err
		},
	}
	f := c.Flags()
	f.DurationVar(&wo.Poll, "poll", vault.DefaultPoll, "also compare the whole vault with the index this often (negative: never)")
	f.DurationVar(&wo.Quiet, "debounce", vault.DefaultQuiet, "wait this long after a file's last event before reading it")
	return c
}

// serveLogger logs at info level (debug with -v) to stderr.
func (g *globals) serveLogger() *slog.Logger {
	level := slog.LevelInfo
	if g.verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(g.stderr, &slog.HandlerOptions{Level: level}))
}
