package vaultgen

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// Defaults applied by Generate to zero-valued Config fields.
const (
	// DefaultNotesPerFolder gives the default folder count, Notes/this.
	DefaultNotesPerFolder = 50
	// DefaultAvgLinks is the default mean number of outgoing links per note.
	DefaultAvgLinks = 8.0
	// DefaultBrokenRate is the default fraction of links with no target.
	DefaultBrokenRate = 0.02
	// DefaultBodyWords is the default mean number of words in a note body.
	DefaultBodyWords = 250
	// MaxFolderDepth is the most folders a note's path has.
	MaxFolderDepth = 3
)

// Config describes the vault to generate. Zero-valued optional fields take
// the defaults documented on each field.
type Config struct {
	// Notes is the number of .md notes to write. Required, > 0.
	Notes int
	// Seed selects the vault: the same Config with the same Seed yields a
	// byte-identical tree.
	Seed uint64
	// Folders is the number of folders (some empty if more than Notes).
	// 0 means Notes/DefaultNotesPerFolder, at least 1; negative is an error.
	Folders int
	// AvgLinks is the mean number of links per note (round(AvgLinks*Notes)
	// in all). 0 means DefaultAvgLinks; negative means no links.
	AvgLinks float64
	// BrokenRate is the probability that a link has no target note. 0
	// means DefaultBrokenRate; negative means none; above 1 is an error.
	BrokenRate float64
	// BodyWords is the mean number of words in a note body. 0 means
	// DefaultBodyWords; negative is an error.
	BodyWords int
}

// Stats reports what Generate wrote.
type Stats struct {
	// Notes is the number of .md files written.
	Notes int
	// Links counts the links between notes, broken ones included:
	// wikilinks, note embeds, markdown links to .md files and frontmatter
	// links (not attachments, images, URLs or text inside code).
	Links int
	// BrokenLinks counts the links whose target note does not exist.
	BrokenLinks int
	// Folders is the number of directories created below the vault root.
	Folders int
	// Bytes is the total size of all files written (notes and attachments).
	Bytes int
}

// normalize validates cfg and fills in defaults.
func (cfg Config) normalize() (Config, error) {
	if cfg.Notes <= 0 {
		return cfg, fmt.Errorf("vaultgen: Notes must be > 0, got %d", cfg.Notes)
	}
	if cfg.Folders < 0 {
		return cfg, fmt.Errorf("vaultgen: Folders must be >= 0, got %d", cfg.Folders)
	}
	cfg.Folders = cmp.Or(cfg.Folders, max(1, cfg.Notes/DefaultNotesPerFolder))
	if math.IsNaN(cfg.AvgLinks) || math.IsInf(cfg.AvgLinks, 0) {
		return cfg, fmt.Errorf("vaultgen: AvgLinks must be finite, got %v", cfg.AvgLinks)
	}
	cfg.AvgLinks = orDefault(cfg.AvgLinks, DefaultAvgLinks)
	if math.IsNaN(cfg.BrokenRate) || cfg.BrokenRate > 1 {
		return cfg, fmt.Errorf("vaultgen: BrokenRate must be <= 1, got %v", cfg.BrokenRate)
	}
	cfg.BrokenRate = orDefault(cfg.BrokenRate, DefaultBrokenRate)
	if cfg.BodyWords < 0 {
		return cfg, fmt.Errorf("vaultgen: BodyWords must be >= 0, got %d", cfg.BodyWords)
	}
	cfg.BodyWords = cmp.Or(cfg.BodyWords, DefaultBodyWords)
	if total := cfg.AvgLinks * float64(cfg.Notes); total > 1<<31 {
		return cfg, fmt.Errorf("vaultgen: AvgLinks*Notes too large (%.0f)", total)
	}
	return cfg, nil
}

// orDefault is a rate of Config: 0 means def and a negative value none.
func orDefault(v, def float64) float64 {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// Generate writes the vault cfg describes into dir, made if needed (with
// mode 0o755, notes 0o644), and reports what it wrote. It refuses a dir
// that is not an empty directory; on error, a partial vault may be left.
func Generate(dir string, cfg Config) (Stats, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return Stats{}, err
	}
	if err := prepareDir(dir); err != nil {
		return Stats{}, err
	}
	p := newPlan(cfg)

	st := Stats{Notes: len(p.notes), Folders: len(p.folders)}
	for _, f := range p.folders {
		if err := os.Mkdir(filepath.Join(dir, filepath.FromSlash(f.path)), 0o755); err != nil {
			return st, fmt.Errorf("vaultgen: %w", err)
		}
	}
	for i := 1; i <= p.attachments; i++ {
		if err := os.WriteFile(filepath.Join(dir, attachmentName(i)), pngBytes, 0o644); err != nil {
			return st, fmt.Errorf("vaultgen: %w", err)
		}
		st.Bytes += len(pngBytes)
	}
	for i := range p.notes {
		st.Links += len(p.notes[i].links)
		for _, l := range p.notes[i].links {
			if l.broken() {
				st.BrokenLinks++
			}
		}
	}

	n, err := p.writeNotes(dir)
	st.Bytes += n
	return st, err
}

// prepareDir makes sure dir exists and is an empty directory.
func prepareDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("vaultgen: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("vaultgen: %w", err)
	case len(entries) > 0:
		return fmt.Errorf("vaultgen: refusing to write into non-empty directory %s", dir)
	}
	return nil
}

// writeNotes renders and writes every note, in parallel, and returns the
// bytes written.
func (p *plan) writeNotes(dir string) (int, error) {
	workers := min(runtime.GOMAXPROCS(0)+2, 16, len(p.notes))
	var (
		next     atomic.Int64
		written  atomic.Int64
		failed   atomic.Bool
		errOnce  sync.Once
		firstErr error
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			var buf bytes.Buffer
			rd := renderer{p: p, b: &buf}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(p.notes) || failed.Load() {
					return
				}
				buf.Reset()
				rd.render(i)
				name := filepath.Join(dir, filepath.FromSlash(p.notes[i].path)+".md")
				if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
					errOnce.Do(func() { firstErr = fmt.Errorf("vaultgen: %w", err) })
					failed.Store(true)
					return
				}
				written.Add(int64(buf.Len()))
			}
		})
	}
	wg.Wait()
	return int(written.Load()), firstErr
}

// attachmentName is the file name of the i-th attachment (1-based).
func attachmentName(i int) string { return fmt.Sprintf("image-%d.png", i) }

// pngBytes is a valid 1×1 PNG, the content of every attachment.
var pngBytes = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d,
	0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xde, 0x00, 0x00, 0x00,
	0x10, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x62, 0xf2, 0x9a, 0xf0, 0x08,
	0x10, 0x00, 0x00, 0xff, 0xff, 0x02, 0xec, 0x01, 0xbf, 0xc0, 0x8c, 0xd5,
	0x30, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60,
	0x82,
}
