package vaultgen

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// frontmatter writes a YAML frontmatter block holding the given links as
// `related:`.
func (rd *renderer) frontmatter(n *note, links []link) {
	b, r := rd.b, rd.r
	b.WriteString("---\n")
	if len(n.aliases) > 0 {
		quoted := make([]string, len(n.aliases))
		for j, a := range n.aliases {
			quoted[j] = strconv.Quote(a)
		}
		rd.yamlList("aliases", quoted, r.Float64() < 0.7)
	}
	if r.Float64() < 0.75 {
		k := 1 + r.IntN(3)
		tags := make([]string, 0, k)
		for range k {
			u := r.Float64()
			if t := tagWords[int(u*u*float64(len(tagWords)))]; !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
		if u := r.Float64(); u < 0.7 {
			rd.yamlList("tags", tags, u < 0.5)
		} else {
			b.WriteString("tags: " + strings.Join(tags, ", ") + "\n")
		}
	}
	if r.Float64() < 0.85 {
		b.WriteString("created: " + date(r) + "\n")
	}
	if r.Float64() < 0.25 {
		b.WriteString("updated: " + date(r) + "\n")
	}
	switch u := r.Float64(); {
	case u < 0.15:
		b.WriteString("rating: " + strconv.Itoa(1+r.IntN(5)) + "\n")
	case u < 0.30:
		b.WriteString("priority: " + strconv.Itoa(1+r.IntN(3)) + "\n")
	case u < 0.40:
		b.WriteString("progress: " + strconv.FormatFloat(float64(r.IntN(101))/100, 'f', -1, 64) + "\n")
	}
	switch u := r.Float64(); {
	case u < 0.2:
		b.WriteString("draft: " + strconv.FormatBool(r.IntN(2) == 0) + "\n")
	case u < 0.35:
		b.WriteString("publish: " + strconv.FormatBool(r.IntN(2) == 0) + "\n")
	}
	if r.Float64() < 0.2 {
		b.WriteString("status: " + statuses[r.IntN(len(statuses))] + "\n")
	}
	if len(links) == 1 && r.Float64() < 0.7 {
		s, _ := rd.linkText(links[0], ctxFM)
		b.WriteString("related: " + s + "\n")
	} else if len(links) > 0 {
		b.WriteString("related:\n")
		for _, l := range links {
			s, _ := rd.linkText(l, ctxFM)
			b.WriteString("  - " + s + "\n")
		}
	}
	b.WriteString("---\n")
}

// yamlList writes key's items as a block list, else as a flow list.
func (rd *renderer) yamlList(key string, items []string, block bool) {
	if !block {
		rd.b.WriteString(key + ": [" + strings.Join(items, ", ") + "]\n")
		return
	}
	rd.b.WriteString(key + ":\n")
	for _, it := range items {
		rd.b.WriteString("  - " + it + "\n")
	}
}

// epoch is the earliest frontmatter date.
var epoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// date returns a random YYYY-MM-DD between 2020 and 2025.
func date(r *rand.Rand) string {
	return epoch.AddDate(0, 0, r.IntN(6*365)).Format(time.DateOnly)
}
