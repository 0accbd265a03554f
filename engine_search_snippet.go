package vaultgraph

import (
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/textfold"
)

// snippetWord is a word of the query as snippets look for it.
type snippetWord struct {
	text   string // folded (textfold.FoldRunes)
	cjk    bool   // matched anywhere in a word, not as its start
	filler bool   // a common function word: weighs little, not bold
}

// snippetWords are the query's words as snippets look for them: each word
// of its terms, folded, without duplicates; words of one letter (other
// than CJK) are left out.
func snippetWords(query string) []snippetWord {
	var out []snippetWord
	for _, t := range store.KeywordTerms(query) {
		r := []rune(t.Text)
		for _, tok := range textfold.WordRuns(r) {
			w := textfold.FoldRunes(r[tok[0]:tok[1]]).Text
			cjk := textfold.HasCJK(w)
			if w == "" || (!cjk && tok[1]-tok[0] < 2) || slices.ContainsFunc(out, func(o snippetWord) bool { return o.text == w }) {
				continue
			}
			out = append(out, snippetWord{text: w, cjk: cjk, filler: fillerWords[w]})
		}
	}
	return out
}

// fillerWords are function words that questions are full of ("what did
// we write about the plan"): a snippet window is chosen for the other
// words, and fillers are not made bold.
var fillerWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by can did do does for from had has have how i if in is it its me my
		no not of on or our so than that the their them then there these they this to us was we were what when where which who
		why will with you your`) {
		fillerWords[w] = true
	}
}

// wordMatch is a run of text [start, end) (runes) that matches query word
// word.
type wordMatch struct{ start, end, word int }

// wordMatches finds the query's words in r: a word matches the start of
// a word of the text ("meet" in "meetings", whole word bold), CJK text
// anywhere in one (just that part bold).
func wordMatches(r []rune, words []snippetWord) []wordMatch {
	var out []wordMatch
	for _, tok := range textfold.WordRuns(r) {
		f := textfold.FoldRunes(r[tok[0]:tok[1]])
		for wi, w := range words {
			if !w.cjk {
				if strings.HasPrefix(f.Text, w.text) {
					out = append(out, wordMatch{tok[0], tok[1], wi})
				}
				continue
			}
			for at := 0; at < len(f.Text); {
				i := strings.Index(f.Text[at:], w.text)
				if i < 0 {
					break
				}
				i += at
				end := i + len(w.text)
				out = append(out, wordMatch{tok[0] + f.From[i], tok[0] + f.From[end-1] + 1, wi})
				at = end
			}
		}
	}
	slices.SortFunc(out, func(a, b wordMatch) int { return a.start - b.start })
	return out
}

// windowText is a snippet of text for a note found by its meaning: about
// n characters of it (whitespace folded, a first heading repeating the
// title left out) around the query's words it has, those in **bold**,
// "…" where the text goes on; the start of the text (textfold.Preview) when it
// has none of them. No word is bold in a link's target or a URL
// (store.Highlight).
func windowText(text, title string, words []snippetWord, n int) string {
	flat := textfold.Flatten(textfold.DropTitleHeading(text, title))
	flat = strings.NewReplacer(store.MarkOpen, "", store.MarkClose, "").Replace(flat)
	r := []rune(flat)
	matches := wordMatches(r, words)
	if len(matches) == 0 || n <= 0 {
		return textfold.Preview(text, title, n)
	}
	allFiller := !slices.ContainsFunc(words, func(w snippetWord) bool { return !w.filler })
	weight := func(w snippetWord) float64 {
		if w.filler && !allFiller {
			return 0.1
		}
		return float64(len([]rune(w.text)))
	}
	// Each match in turn starts a window, a little text before it; the
	// window with the most (and longest) of the query's words wins, the
	// first one on a tie.
	lead := n / 5
	bestA, bestB, bestScore := 0, 0, -1.0
	seen := make([]int, len(words)) // the window that last counted each word, +1
	for i, m := range matches {
		a, b := window(r, m, lead, n)
		score := 0.0
		// Matches are sorted by start: those in the window are near m.
		lo, _ := slices.BinarySearchFunc(matches[:i+1], a, func(o wordMatch, a int) int { return o.start - a })
		for _, o := range matches[lo:] {
			if o.start >= b {
				break
			}
			if o.end <= b && seen[o.word] != i+1 {
				seen[o.word] = i + 1
				score += weight(words[o.word])
			}
		}
		if score > bestScore {
			bestA, bestB, bestScore = a, b, score
		}
	}
	bold := make([]bool, len(r)+1)
	for _, m := range matches {
		if m.start >= bestA && m.end <= bestB && (allFiller || !words[m.word].filler) {
			for i := m.start; i < m.end; i++ {
				bold[i] = true
			}
		}
	}
	var sb strings.Builder
	if bestA > 0 {
		sb.WriteString(store.SnippetEllipsis)
	}
	for i := bestA; i < bestB; i++ {
		if bold[i] && (i == bestA || !bold[i-1]) {
			sb.WriteString(store.MarkOpen)
		}
		sb.WriteRune(r[i])
		if bold[i] && !bold[i+1] || bold[i] && i == bestB-1 {
			sb.WriteString(store.MarkClose)
		}
	}
	if bestB < len(r) {
		sb.WriteString(store.SnippetEllipsis)
	}
	return store.Highlight(sb.String(), flat)
}

// window is the range [a, b) of at most n runes of r that shows match m
// with up to lead runes before it (more when the text ends sooner than n
// runes after it), cut at spaces where it can be.
func window(r []rune, m wordMatch, lead, n int) (a, b int) {
	a = max(0, m.start-max(lead, n-(len(r)-m.start)))
	if a > 0 {
		if sp := slices.Index(r[a:m.start], ' '); sp >= 0 {
			a += sp + 1 // from the next word
		}
	}
	b = min(len(r), a+n)
	if b < len(r) && b > m.end {
		if sp := lastIndex(r[m.end:b], ' '); sp >= 0 {
			b = m.end + sp // up to the last whole word
		}
	}
	return a, b
}

func lastIndex(r []rune, c rune) int {
	for i := len(r) - 1; i >= 0; i-- {
		if r[i] == c {
			return i
		}
	}
	return -1
}
