package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/vaultgraph/vaultgraph"
)

// waitEmbeddings waits for the engine's vectors, with a progress bar.
func (g *globals) waitEmbeddings(ctx context.Context, e *vaultgraph.Engine) error {
	bar := g.progress(100, "embedding notes")
	if bar == nil {
		return e.WaitEmbeddings(ctx)
	}
	done := make(chan error, 1)
	go func() { done <- e.WaitEmbeddings(ctx) }()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			_ = bar.Finish()
			return err
		case <-tick.C:
			if st, err := e.Status(ctx); err == nil {
				_ = bar.Set(int(st.Embeddings * 100))
			}
		}
	}
}

// terminal reports whether stderr is a terminal, where progress bars go.
func (g *globals) terminal() bool {
	f, ok := g.stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress is a progress bar up to max (-1: unknown) on a terminal, else nil.
func (g *globals) progress(max int, desc string, opts ...progressbar.Option) *progressbar.ProgressBar {
	if !g.terminal() {
		return nil
	}
	return progressbar.NewOptions(max, append([]progressbar.Option{progressbar.OptionSetWriter(g.stderr),
		progressbar.OptionSetDescription(desc), progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish()}, opts...)...)
}

func newIndexCmd(g *globals) *cobra.Command {
	var full bool
	c := command("index", maxArgs(1))
	c.RunE = g.inVault(func(c *cobra.Command) error {
		opts, err := g.engineOptions()
		if err != nil {
			return err
		}
		opts.Rebuild = full
		if opts.Embedder, err = g.embedder(); err != nil {
			return err
		}
		opts.StoreVectorsOnly = true // index embeds, it never searches
		opts.IndexOnly = true        // nor reads a note back
		limitIndexMemory(os.Getenv)
		bar := g.progress(-1, "parsing notes", progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("notes"))
		if bar != nil {
			opts.Progress = func(done, total int) {
				bar.ChangeMax(total)
				_ = bar.Set(done)
			}
		}
		e := vaultgraph.New(opts)
		err = e.Open(c.Context())
		if bar != nil {
			_ = bar.Finish()
		}
		if err != nil {
			return err
		}
		defer e.Close()
		if opts.Embedder != nil {
			if err := g.waitEmbeddings(c.Context(), e); err != nil {
				return fmt.Errorf("embeddings: %w", err)
			}
		}
		r := e.Report()
		fmt.Fprintf(g.stdout, "indexed %d notes (%d parsed, %d unchanged, %d removed), %d links, %d broken, %d problems in %s -> %s\n",
			r.Notes, r.Parsed, r.Unchanged, r.Removed, r.Links, r.BrokenLinks, r.Problems,
			r.Duration.Round(time.Millisecond), e.IndexPath())
		return nil
	})
	c.Flags().BoolVar(&full, "full", false, "empty the index and parse every note again")
	g.embedFlags(c)
	return c
}
