// Command vaultgraph turns an Obsidian vault into a live graph that agents
// and scripts can query. Every MCP tool is also a sub-command here.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/mcp"
)

// Environment variables holding defaults for --vault and --index.
const (
	EnvVault = "VAULTGRAPH_VAULT"
	EnvIndex = "VAULTGRAPH_INDEX"
)

// globals are the flags every command takes.
type globals struct {
	vault   string
	index   string
	verbose bool
	// embedSpec and embedURL choose the embedding model (embedFlags).
	embedSpec string
	embedURL  string
	log       *slog.Logger
	runOptions
	stdout io.Writer
	stderr io.Writer
}

// version is the release, set at build time with
// -ldflags "-X main.version=v1.2.3"; "dev" otherwise.
var version = "dev"

// runOptions is what a run takes from outside its command line; tests set
// its fields (the zero value is the real program's) to run in parallel.
type runOptions struct {
	// stdin is what serve and --content - read; nil means os.Stdin.
	stdin io.Reader
	// embedWait bounds a one-shot search's wait for vectors (0: oneShotEmbedWait).
	embedWait time.Duration
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfiles := startProfiles(os.Stderr)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfiles()
	writePeakRSS(os.Getenv(envPeakRSS))
	stop()
	os.Exit(code)
}

// run executes the command line args and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, args, runOptions{}, stdout, stderr)
}

// runWith is run with o in place of the defaults.
func runWith(ctx context.Context, args []string, o runOptions, stdout, stderr io.Writer) int {
	if o.stdin == nil {
		o.stdin = os.Stdin
	}
	o.embedWait = cmp.Or(o.embedWait, oneShotEmbedWait)
	g := &globals{runOptions: o, stdout: stdout, stderr: stderr}
	root := newRootCmd(g)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintf(stderr, "vaultgraph: %s: %s\n", mcp.Code(err), mcp.Message(err))
		return 1
	}
	return 0
}

func newRootCmd(g *globals) *cobra.Command {
	// Without this Args cobra reports an unknown command as a plain error,
	// which would reach the user as PROVIDER_ERROR.
	root := command("vaultgraph", func(c *cobra.Command, a []string) error {
		if len(a) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q", a[0])
		if s := c.SuggestionsFor(a[0]); len(s) > 0 {
			msg += fmt.Sprintf("; did you mean %s?", strings.Join(s, ", "))
		}
		return fmt.Errorf("%w: %s (see %s --help)", vaultgraph.ErrInvalid, msg, c.CommandPath())
	})
	root.SilenceUsage, root.SilenceErrors = true, true
	root.SuggestionsMinimumDistance = 2
	root.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	def := cmp.Or(os.Getenv(EnvVault), ".")
	pf := root.PersistentFlags()
	pf.StringVar(&g.vault, "vault", def, "vault folder (default $"+EnvVault+" or the current folder)")
	pf.StringVar(&g.index, "index", os.Getenv(EnvIndex), "index file (default $"+EnvIndex+" or <vault>/.vaultgraph/index.db)")
	pf.BoolVarP(&g.verbose, "verbose", "v", false, "log progress and note warnings to stderr")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w: %v (see %s --help)", vaultgraph.ErrInvalid, err, c.CommandPath())
	})
	root.AddCommand(
		newGetNodeCmd(g), newGetNeighborsCmd(g), newFindPathCmd(g), newGetHubsCmd(g),
		newSearchByTagsCmd(g), newListNodesCmd(g), newListTagsCmd(g), newRandomNodeCmd(g),
		newVaultStatusCmd(g), newGetRelatedCmd(g), newCreateNodeCmd(g), newLinkMentionsCmd(g), newUpdateNodeCmd(g), newDeleteNodeCmd(g), newRepairLinksCmd(g), newModelCmd(g), newGenCmd(g), newIndexCmd(g), newServeCmd(g), newOpenCmd(g), newBenchCmd(g),
		newSearchCmd(g),
	)
	return root
}

// args requires these positional arguments (INVALID_PARAMS otherwise).
func args(names ...string) cobra.PositionalArgs {
	return func(c *cobra.Command, a []string) error {
		if len(a) != len(names) {
			return fmt.Errorf("%w: %s takes %d argument(s) (%v), got %d", vaultgraph.ErrInvalid, c.Name(), len(names), names, len(a))
		}
		return nil
	}
}

// maxArgs allows at most n positional arguments; more is INVALID_PARAMS.
func maxArgs(n int) cobra.PositionalArgs {
	return func(c *cobra.Command, a []string) error {
		if len(a) > n {
			return fmt.Errorf("%w: %s takes at most %d argument(s), got %d (quote a title with spaces)", vaultgraph.ErrInvalid, c.Name(), n, len(a))
		}
		return nil
	}
}

// inVault is the RunE of a command whose one optional argument, VAULT,
// names the vault as --vault does.
func (g *globals) inVault(run func(c *cobra.Command) error) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, a []string) error {
		if len(a) == 1 {
			g.vault = a[0]
		}
		return run(c)
	}
}

// firstArg binds a command's one argument to *dst.
func firstArg(dst *string) func(a []string) error {
	return func(a []string) error {
		*dst = a[0]
		return nil
	}
}

// allArgs binds a command's arguments to *dst.
func allArgs(dst *[]string) func(a []string) error {
	return func(a []string) error {
		*dst = a
		return nil
	}
}

// logger is the logger commands use (newLogger, warnings).
func (g *globals) logger() *slog.Logger {
	if g.log == nil { // one handler, so concurrent lines never interleave
		g.log = g.newLogger(slog.LevelWarn)
	}
	return g.log
}

// newLogger logs to stderr at level, or at the level below it with -v.
func (g *globals) newLogger(level slog.Level) *slog.Logger {
	if g.verbose {
		level -= 4 // warn to info, info to debug
	}
	return slog.New(slog.NewTextHandler(g.stderr, &slog.HandlerOptions{Level: level}))
}

// engineOptions are the Engine options the global flags give.
func (g *globals) engineOptions() (vaultgraph.Options, error) {
	opts := vaultgraph.Options{Vault: g.vault, Index: g.index, Logger: g.logger()}
	if opts.Index == "" {
		p, err := vaultgraph.DefaultIndexPath(g.vault)
		if err != nil {
			return opts, err
		}
		opts.Index = p
	}
	return opts, nil
}

// EnvEmbed holds the default of --embed.
const EnvEmbed = "VAULTGRAPH_EMBED"

// embedFlags adds --embed and --embed-url to a command that uses vectors.
func (g *globals) embedFlags(c *cobra.Command) {
	def := cmp.Or(os.Getenv(EnvEmbed), "builtin")
	// Each command has its own variables: only the command that runs
	// sets g.embedSpec (other commands make no vectors).
	spec, url := new(string), new(string)
	c.Flags().StringVar(spec, "embed", def, "embedding model: builtin (offline, lexical), ollama:MODEL, openai:MODEL, model2vec:NAME-or-DIR, or none (default $"+EnvEmbed+" or builtin)")
	c.Flags().StringVar(url, "embed-url", "", "base URL of the ollama or OpenAI-compatible server (default $VAULTGRAPH_EMBED_URL or the provider's; the API key comes from $VAULTGRAPH_EMBED_KEY or $OPENAI_API_KEY)")
	run := c.RunE
	c.RunE = func(c *cobra.Command, a []string) error {
		g.embedSpec, g.embedURL = *spec, *url
		return run(c, a)
	}
}

// embedder builds the model --embed names; nil for none or no --embed.
func (g *globals) embedder() (embed.Embedder, error) {
	if g.embedSpec == "" {
		return nil, nil
	}
	em, err := embed.New(g.embedSpec, embed.Options{BaseURL: g.embedURL})
	if err != nil {
		return nil, fmt.Errorf("%w: --embed %s: %v", vaultgraph.ErrInvalid, g.embedSpec, err)
	}
	return em, nil
}

// withTools runs fn on the vault's engine and prints its answer as MCP
// would; a read (params not nil) is first offered to a running server.
func (g *globals) withTools(ctx context.Context, tool string, params any, pres *mcp.Presentation, fn func(context.Context, *mcp.Tools) (any, error)) error {
	pres.Flags = true // hints name this command's flags
	if _, err := mcp.Render(tool, nil, *pres); err != nil {
		return err // a bad --format, --detail or --max-tokens, before any work
	}
	opts, err := g.engineOptions()
	if err != nil {
		return err
	}
	if params != nil {
		text, err := handOff(ctx, opts.Index, vaultRoot(g.vault), tool, g.embedKey(), params, *pres)
		switch {
		case err == nil:
			return g.printAnswer(text)
		case !errors.Is(err, errDeclined):
			return err
		}
		g.logger().Debug("reading the index directly", "why", err)
	}
	// A running server keeps the index current: read it as it is.
	opts.TrustIndex = serverRunning(opts.Index)
	if opts.Embedder, err = g.embedder(); err != nil {
		return err
	}
	// A one-shot command does not define the vault's model (serve and
	// index do): other models' vectors stay.
	opts.KeepOtherVectors = true
	restoreGC := loadGC()
	e := vaultgraph.New(opts)
	if err := e.Open(ctx); err != nil {
		return err
	}
	defer e.Close()
	if opts.Embedder != nil {
		restoreGC()
		// One-shot: make the missing vectors now (the server does it in
		// the background), for up to g.embedWait; past it, or if the model
		// fails, search says so and uses what it has.
		wctx, cancel := context.WithTimeout(ctx, g.embedWait)
		err := e.WaitEmbeddings(wctx)
		cancel()
		switch {
		case err == nil:
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			g.logger().Warn("embeddings incomplete: answering with the vectors made so far; the next search goes on, `vaultgraph index` makes them all", "waited", g.embedWait)
		default:
			g.logger().Warn("embeddings incomplete: the answer says which vectors it used", "err", err)
		}
	}
	v, err := fn(ctx, &mcp.Tools{Engine: e})
	if err != nil {
		return err
	}
	text, err := mcp.Render(tool, v, *pres)
	if err != nil {
		return err
	}
	return g.printAnswer(text)
}

// printAnswer writes a command's answer to stdout.
func (g *globals) printAnswer(text string) error {
	if _, err := fmt.Fprintln(g.stdout, text); err != nil {
		return fmt.Errorf("write answer: %w", err)
	}
	return nil
}

// embedKey names the model a command or server uses (--embed and
// --embed-url): a server answers only the searches it would answer alike.
func (g *globals) embedKey() string {
	if g.embedSpec == "" {
		return ""
	}
	return g.embedSpec + " " + g.embedURL
}

// toolKind says whether a command's tool reads or writes.
type toolKind bool

const (
	reads  toolKind = true
	writes toolKind = false
)

// toolCmd makes c the command of tool: bind (when not nil) takes the
// arguments into p, then withTools runs the tool. A read takes the
// presentation flags and may be handed to a server; a write, --format.
func toolCmd[P any](g *globals, c *cobra.Command, tool string, p *P, pres *mcp.Presentation, run func(*mcp.Tools, context.Context, P) (any, error), bind func(a []string) error, kind toolKind) *cobra.Command {
	f := c.Flags()
	f.StringVar(&pres.Format, "format", "", "output format: "+mcp.Formats.String()+" (default "+mcp.DefaultFormat(tool)+")")
	if kind == reads {
		f.StringVar(&pres.Detail, "detail", mcp.Details.Default, "field preset: "+mcp.Details.String())
		f.StringSliceVar(&pres.Fields, "fields", nil, "fields to print instead of the preset, comma-separated (see README)")
		f.IntVar(&pres.MaxTokens, "max-tokens", 0, "trim the answer to at most this many o200k tokens (50 or more)")
	}
	c.RunE = func(c *cobra.Command, a []string) error {
		if bind != nil {
			if err := bind(a); err != nil {
				return err
			}
		}
		var params any
		if kind == reads {
			params = *p
		}
		return g.withTools(c.Context(), tool, params, pres, func(ctx context.Context, t *mcp.Tools) (any, error) {
			return run(t, ctx, *p)
		})
	}
	return c
}

// pageFlags adds --sort-by (note follows its keys), --page and --limit for
// list k. The tools read 0 as "not given", so the command refuses a --page
// or --limit out of range itself, as the MCP schemas do.
func pageFlags(c *cobra.Command, k vaultgraph.ListKind, pg *mcp.Paging, note string) {
	f := c.Flags()
	f.StringSliceVar((*[]string)(&pg.SortBy), "sort-by", nil, "sort keys, comma-separated, '-' for descending: "+strings.Join(k.SortFields, ", ")+note)
	f.IntVar(&pg.Page, "page", 1, "page number, from 1")
	f.IntVar(&pg.Limit, "limit", k.DefaultLimit, fmt.Sprintf("items per page (1-%d)", k.MaxLimit))
	c.PreRunE = func(*cobra.Command, []string) error {
		if err := vaultgraph.InRange("--page", pg.Page, new(1), nil); err != nil {
			return err
		}
		return vaultgraph.InRange("--limit", pg.Limit, new(1), &k.MaxLimit)
	}
}
