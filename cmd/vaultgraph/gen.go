package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

func newGenCmd(g *globals) *cobra.Command {
	var cfg vaultgen.Config
	c := command("gen", args("DIR"))
	c.RunE = func(c *cobra.Command, a []string) error {
		if cfg.Notes <= 0 {
			return fmt.Errorf("%w: --notes must be at least 1", vaultgraph.ErrInvalid)
		}
		st, err := vaultgen.Generate(a[0], cfg)
		if err != nil {
			return err
		}
		fmt.Fprintf(g.stderr, "wrote %d notes, %d links (%d broken), %d folders, %d bytes to %s\n",
			st.Notes, st.Links, st.BrokenLinks, st.Folders, st.Bytes, a[0])
		return nil
	}
	f := c.Flags()
	f.IntVar(&cfg.Notes, "notes", 1000, "number of notes")
	f.Uint64Var(&cfg.Seed, "seed", 1, "random seed; the same seed gives the same vault")
	f.Float64Var(&cfg.AvgLinks, "avg-links", 8, "mean links per note")
	f.Float64Var(&cfg.BrokenRate, "broken-rate", 0.02, "share of links with no target note")
	f.IntVar(&cfg.BodyWords, "body-words", 250, "mean words per note")
	return c
}
