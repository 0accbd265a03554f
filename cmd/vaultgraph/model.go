package main

import (
	"fmt"
	"net/http"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/embed"
)

func newModelCmd(g *globals) *cobra.Command {
	c := command("model", args())
	c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	c.AddCommand(newModelPullCmd(g))
	return c
}

func newModelPullCmd(g *globals) *cobra.Command {
	var cacheDir string
	c := command("model pull", maxArgs(1))
	c.RunE = func(c *cobra.Command, a []string) error {
		name := embed.DefaultModel2Vec
		if len(a) == 1 {
			name = a[0]
		}
		if !embed.ValidModelName(name) {
			return fmt.Errorf("%w: model %q: give a Hugging Face name such as %s", vaultgraph.ErrInvalid, name, embed.DefaultModel2Vec)
		}
		if cacheDir == "" {
			dir, err := embed.DefaultCacheDir()
			if err != nil {
				return err
			}
			cacheDir = dir
		}
		var bar *progressbar.ProgressBar
		if g.terminal() {
			bar = progressbar.DefaultBytes(-1, "downloading "+name)
		}
		progress := func(done, total int64) {
			if bar != nil {
				if total > 0 && bar.GetMax64() != total {
					bar.ChangeMax64(total)
				}
				_ = bar.Set64(done)
			}
		}
		dir, err := embed.Pull(c.Context(), name, cacheDir, http.DefaultClient, progress)
		if bar != nil {
			_ = bar.Finish()
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "%s\n", dir)
		return nil
	}
	c.Flags().StringVar(&cacheDir, "cache", "", "model cache folder (default the user cache, e.g. ~/.cache/vaultgraph/models)")
	return c
}
