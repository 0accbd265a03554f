package vaultgen

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Tuning constants of the generated vault's shape.
const (
	seedMix       = 0x9E3779B97F4A7C15 // mixes Seed into the second PCG word
	noteSeedMix   = 0xD1B54A32D192ED03 // derives per-note streams
	rootNoteRate  = 0.03               // notes placed in the vault root
	dupRate       = 0.03               // notes reusing another folder's base name
	nonASCIIRate  = 0.02               // notes with a non-ASCII title
	hubShare      = 0.5                // links whose target is drawn from the Zipf
	zipfExponent  = 1.0                // exponent of the target Zipf
	outDegAlpha   = 2.0                // tail exponent of the out-degree (Lomax)
	outDegCap     = 60.0               // cap on a note's out-degree weight (mean 1)
	folderZipfExp = 0.7                // skew of notes across folders
	notesPerImage = 25                 // notes per attachment file
)

// folder is one planned directory.
type folder struct {
	path  string // slash-separated, relative to the vault root
	depth int    // 1 for top-level folders
}

// link is one planned link: a note index, or a broken name when negative.
type link int32

// broken reports whether l has no target note.
func (l link) broken() bool { return l < 0 }

// note is one planned note.
type note struct {
	title    string
	path     string // folder path + "/" + title, without ".md"
	folder   int32  // index into plan.folders, -1 for the vault root
	dup      bool   // another note has the same base name (case-insensitively)
	headings []uint8
	aliases  []string
	links    []link
}

// plan is everything decided before rendering: folders, titles, headings,
// aliases and every link. Rendering only chooses how to spell things.
type plan struct {
	cfg         Config
	folders     []folder
	notes       []note
	broken      []string // names of notes that do not exist
	attachments int
}

// newPlan decides the structure of the vault from cfg (already normalized).
func newPlan(cfg Config) *plan {
	r := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^seedMix))
	p := &plan{cfg: cfg, notes: make([]note, cfg.Notes)}
	p.attachments = max(1, cfg.Notes/notesPerImage)
	p.makeFolders(r)
	p.placeNotes(r)
	taken := p.makeTitles(r)
	p.makeHeadingsAndAliases(r, taken)
	p.makeLinks(r, taken)
	return p
}

// makeFolders builds a folder tree; later folders are likelier to nest.
func (p *plan) makeFolders(r *rand.Rand) {
	n := p.cfg.Folders
	p.folders = make([]folder, 0, n)
	used := make(map[string]bool, n)
	var nestable []int // folders with depth < MaxFolderDepth
	for i := range n {
		parent := -1
		if len(nestable) > 0 && r.Float64() >= max(0.05, 3/float64(i+1)) {
			parent = nestable[r.IntN(len(nestable))]
		}
		name := uniqueFolderName(r, used)
		f := folder{path: name, depth: 1}
		if parent >= 0 {
			f.path = p.folders[parent].path + "/" + name
			f.depth = p.folders[parent].depth + 1
		}
		if f.depth < MaxFolderDepth {
			nestable = append(nestable, i)
		}
		p.folders = append(p.folders, f)
	}
}

// placeNotes assigns each note a folder (or the root), skewed, none empty.
func (p *plan) placeNotes(r *rand.Rand) {
	nf := len(p.folders)
	cdf := zipfCDF(nf, folderZipfExp)
	perm := r.Perm(nf)
	for i := range p.notes {
		var f int
		switch {
		case i < nf:
			f = i
		case r.Float64() < rootNoteRate:
			f = -1
		default:
			f = perm[sampleCDF(cdf, r.Float64())]
		}
		p.notes[i].folder = int32(f)
	}
	r.Shuffle(len(p.notes), func(i, j int) {
		p.notes[i].folder, p.notes[j].folder = p.notes[j].folder, p.notes[i].folder
	})
}

// makeTitles gives every note a file-name title unique in its folder
// (dupRate of them reuse one of another folder) and returns the lower-cased
// names in use, which broken link names must avoid.
func (p *plan) makeTitles(r *rand.Rand) map[string]bool {
	byName := make(map[string][]int32, len(p.notes)) // lower title -> folders
	taken := make(map[string]bool, len(p.notes)+len(reservedNames))
	for _, s := range reservedNames {
		taken[s] = true
	}
	for i := range p.notes {
		n := &p.notes[i]
		title := ""
		if n.folder >= 0 && i > 0 && r.Float64() < dupRate {
			title = p.duplicateTitle(r, i, byName)
		}
		if title == "" {
			nonASCII := r.Float64() < nonASCIIRate
			for try := 0; ; try++ {
				if nonASCII && try < 20 {
					title = nonASCIITitle(r)
				} else {
					title = asciiTitle(r, try)
				}
				if !taken[strings.ToLower(title)] {
					break
				}
			}
		}
		key := strings.ToLower(title)
		taken[key] = true
		byName[key] = append(byName[key], n.folder)
		n.title = title
		n.path = title
		if n.folder >= 0 {
			n.path = p.folders[n.folder].path + "/" + title
		}
	}
	for i := range p.notes {
		p.notes[i].dup = len(byName[strings.ToLower(p.notes[i].title)]) > 1
	}
	return taken
}

// duplicateTitle picks the title of an earlier note in a folder with no
// namesake in note i's folder, or "" if a few tries find none.
func (p *plan) duplicateTitle(r *rand.Rand, i int, byName map[string][]int32) string {
	for range 5 {
		src := &p.notes[r.IntN(i)]
		if src.folder < 0 {
			continue
		}
		if !slices.Contains(byName[strings.ToLower(src.title)], p.notes[i].folder) {
			return src.title
		}
	}
	return ""
}

// makeHeadingsAndAliases plans each note's headings (which links may
// target) and aliases, adding the aliases to taken (broken names avoid them).
func (p *plan) makeHeadingsAndAliases(r *rand.Rand, taken map[string]bool) {
	idx := make([]uint8, len(headingWords))
	for i := range idx {
		idx[i] = uint8(i)
	}
	var aliasKeys []string
	for i := range p.notes {
		n := &p.notes[i]
		if k := r.IntN(10); k >= 2 { // 20% of notes have no sections
			k = min(1+r.IntN(5), len(idx))
			for j := range k { // partial Fisher–Yates
				s := j + r.IntN(len(idx)-j)
				idx[j], idx[s] = idx[s], idx[j]
			}
			n.headings = slices.Clone(idx[:k])
		}
		if r.Float64() < 0.4 {
			words := strings.Fields(n.title)
			if len(words) >= 2 && r.Float64() < 0.5 {
				var sb strings.Builder
				for _, w := range words {
					sb.WriteString(strings.ToUpper(string([]rune(w)[:1])))
				}
				if a := sb.String(); !taken[strings.ToLower(a)] {
					n.aliases = append(n.aliases, a)
				}
			}
			n.aliases = append(n.aliases, strings.ToLower(n.title))
			for _, a := range n.aliases {
				aliasKeys = append(aliasKeys, strings.ToLower(a))
			}
		}
	}
	for _, k := range aliasKeys {
		taken[k] = true
	}
}

// makeLinks plans every link: heavy-tailed out-degrees summing to
// round(AvgLinks*Notes), targets from a Zipf over a random ranking of notes
// (the hubs) or uniform, and BrokenRate of links to a skewed pool of
// nonexistent names.
func (p *plan) makeLinks(r *rand.Rand, taken map[string]bool) {
	n := len(p.notes)
	total := math.Round(p.cfg.AvgLinks * float64(n))
	if total == 0 {
		return
	}

	// Out-degrees: Lomax weights, systematically rounded to integers that
	// sum exactly to total.
	w := make([]float64, n)
	sum := 0.0
	for i := range w {
		x := math.Pow(1-r.Float64(), -1/outDegAlpha) - 1
		w[i] = min(x, outDegCap)
		sum += w[i]
	}
	deg := roundSteps(n, int(total), func(i int) float64 { return w[i] * total / sum })

	// Broken-name pool.
	if p.cfg.BrokenRate > 0 {
		pool := max(1, int(math.Ceil(total*p.cfg.BrokenRate/3)))
		p.broken = make([]string, 0, pool)
		for range pool {
			for try := 0; ; try++ {
				name := asciiTitle(r, try+8) // at least three words
				if key := strings.ToLower(name); !taken[key] {
					taken[key] = true
					p.broken = append(p.broken, name)
					break
				}
			}
		}
	}

	cdf := zipfCDF(n, zipfExponent)
	rank := r.Perm(n) // rank[k] is the note with popularity rank k
	for i := range p.notes {
		links := make([]link, deg[i])
		for j := range links {
			if p.cfg.BrokenRate > 0 && r.Float64() < p.cfg.BrokenRate {
				u := r.Float64()
				links[j] = link(-1 - int(u*u*float64(len(p.broken))))
				continue
			}
			t := i
			for try := 0; t == i && try < 4; try++ {
				if r.Float64() < hubShare {
					t = rank[sampleCDF(cdf, r.Float64())]
				} else {
					t = r.IntN(n)
				}
			}
			if t == i && n > 1 {
				t = (i + 1) % n
			}
			links[j] = link(t)
		}
		p.notes[i].links = links
	}
}

// zipfCDF is the normalized cumulative weights 1/(k+1)^s of ranks 0..n-1.
func zipfCDF(n int, s float64) []float64 {
	cdf := make([]float64, n)
	acc := 0.0
	for k := range cdf {
		acc += math.Pow(float64(k+1), -s)
		cdf[k] = acc
	}
	for k := range cdf {
		cdf[k] /= acc
	}
	return cdf
}

// sampleCDF is the first index whose cumulative weight exceeds u in [0, 1).
func sampleCDF(cdf []float64, u float64) int {
	i, _ := slices.BinarySearch(cdf, u)
	if i < len(cdf) && cdf[i] == u {
		i++
	}
	return min(i, len(cdf)-1)
}

// noteRand returns the random stream used to render note i.
func (p *plan) noteRand(i int) *rand.Rand {
	x := uint64(i) + 1
	// splitmix64 finalizer, so neighbouring notes get unrelated streams.
	x += noteSeedMix
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	x ^= x >> 31
	return rand.New(rand.NewPCG(p.cfg.Seed^x, x^seedMix))
}
