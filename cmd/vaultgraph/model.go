package main

import (
	"fmt"
	"net/http"
	"os"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/embed"
)

func newModelCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "model",
		Short: "Manage local embedding models (model2vec)",
		Args:  args(),
		RunE:  func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(newModelPullCmd(g))
	return c
}

func newModelPullCmd(g *globals) *cobra.Command {
	var cacheDir string
	c := &cobra.Command{
		Use:   "pull [NAME]",
		Short: "Download a model2vec model into the local cache",
		Long: `Download a static embedding model in the model2vec format (model.safetensors
and tokenizer.json) from Hugging Face into the user cache, so that
--embed model2vec:NAME works offline afterwards. NAME defaults to
` + embed.DefaultModel2Vec + ` (MIT licence). $HF_ENDPOINT names a mirror.`,
		Example: `  vaultgraph model pull
  vaultgraph model pull minishlab/potion-base-8M
  vaultgraph serve ~/notes --embed model2vec:minishlab/potion-base-8M`,
		Args: maxArgs(1),
		RunE: func(c *cobra.Command, a []string) error {
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
			if f, ok := g.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
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
		},
	}
	c.Flags().StringVar(&cacheDir, "cache", "", "model cache folder (default the user cache, e.g. ~/.cache/vaultgraph/models)")
	return c
}
