package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/vaultgraph/vaultgraph"
)

// vaultBench holds the figures of `vaultgraph bench --vault DIR`.
type vaultBench struct {
	name                           string
	notes, links, broken, problems int
	index, indexEmbed              childRun
}

func (r vaultBench) line() string {
	return fmt.Sprintf("vault name=%s notes=%d links=%d broken=%d problems=%d index=%s peak_rss=%s index_embed=%s peak_rss_embed=%s",
		r.name, r.notes, r.links, r.broken, r.problems, secs(r.index.wall), kib(r.index.rssKiB),
		secs(r.indexEmbed.wall), kib(r.indexEmbed.rssKiB))
}

// runBenchVault measures an existing vault, `vaultgraph bench --vault
// DIR`: a cold `vaultgraph index` in a child process with --embed none
// (parsing, links, graph, SQLite and full-text index: index and
// peak_rss), then another into a new index with the default builtin
// embedder (index_embed, peak_rss_embed). The indexes go to a temporary
// folder (or --dir), so the vault is only read. It prints one line, the
// name being the vault folder's name:
//
//	vault name=kepano-obsidian notes=103 links=147 broken=62 problems=0 index=0.15s peak_rss=38.2MiB index_embed=0.31s peak_rss_embed=52.0MiB
func runBenchVault(ctx context.Context, o benchOptions, vaultDir string, stdout, stderr io.Writer) error {
	abs, err := filepath.Abs(vaultDir)
	if err != nil {
		return fmt.Errorf("bench --vault: %w", err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return fmt.Errorf("%w: --vault %s: not a folder", vaultgraph.ErrInvalid, vaultDir)
	}
	r := vaultBench{name: filepath.Base(abs)}
	work, cleanup, err := o.workDir()
	if err != nil {
		return err
	}
	defer cleanup()
	indexDir := filepath.Join(work, "index-"+r.name)
	if err := o.newDirs(indexDir); err != nil {
		return err
	}
	defer o.removeDirs(indexDir)
	for _, run := range []struct {
		embed string
		out   *childRun
	}{{"none", &r.index}, {"builtin", &r.indexEmbed}} {
		fmt.Fprintf(stderr, "bench: indexing %s (--embed %s)\n", abs, run.embed)
		child, out, err := indexChild(ctx, o.exe, abs, filepath.Join(indexDir, run.embed, "index.db"), run.embed)
		*run.out = child
		if err != nil {
			return fmt.Errorf("bench --vault %s: %w", vaultDir, err)
		}
		m := summary.FindStringSubmatch(out)
		if m == nil {
			return fmt.Errorf("bench --vault %s: %s index printed %q, not its summary line", vaultDir, o.exe, out)
		}
		n := make([]int, len(m))
		for i := 1; i < len(m); i++ {
			n[i], _ = strconv.Atoi(m[i])
		}
		counts := [4]int{n[1], n[3], n[4], n[5]}
		if run.out == &r.indexEmbed && counts != [4]int{r.notes, r.links, r.broken, r.problems} {
			return fmt.Errorf("bench --vault %s: the two index runs disagree: %q", vaultDir, m[0])
		}
		r.notes, r.links, r.broken, r.problems = counts[0], counts[1], counts[2], counts[3]
		if run.out.parsed = n[2]; run.out.parsed != r.notes {
			return fmt.Errorf("bench --vault %s: a cold index parsed %d of %d notes", vaultDir, run.out.parsed, r.notes)
		}
		fmt.Fprintf(stderr, "bench: %s, peak RSS %s\n", secs(run.out.wall), kib(run.out.rssKiB))
	}
	fmt.Fprintln(stdout, r.line())
	return nil
}
