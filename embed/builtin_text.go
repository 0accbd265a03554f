package embed

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"golang.org/x/text/unicode/norm"
)

// word is one word of a folded text with its idf prior (set by
// countWords, once per distinct word).
type word struct {
	text       string
	weight     float32
	afterBreak bool // punctuation or a line break separates it from the previous word
}

// folder folds texts as Builtin says, with textfold's table of accents.
// Marks on scripts other than Latin, Greek and Cyrillic (Japanese
// dakuten, Indic vowel signs) change the letter, so they stay. It differs
// from textfold.Fold (compatibility forms of every script, final sigma
// kept) because a change here changes the builtin vectors, which takes a
// new BuiltinModel. It keeps its buffers from one text to the next, and
// the normaliser's iterator: norm.Form.AppendString makes a new reorder
// buffer on the heap for each text that is not already normal.
type folder struct {
	nfkd, out, nfc []byte
	it             norm.Iter
}

// normalize appends s in form to dst: the bytes of
// form.AppendString(dst, s), made through f's iterator when that gives
// the same bytes (iterSafe).
func (f *folder) normalize(form norm.Form, dst []byte, s string) []byte {
	if !iterSafe(s) {
		return form.AppendString(dst, s)
	}
	f.it.InitString(form, s)
	for !f.it.Done() {
		dst = append(dst, f.it.Next()...)
	}
	return dst
}

// maxIterRun is the longest run of non-ASCII characters for which the
// normaliser's Iter and Append give the same bytes. They differ only in
// where they put a grapheme joiner (U+034F) in a run of more than 30
// non-starters (the Stream-Safe Text Format), and the decomposition of
// one character adds at most 3 non-starters to a run, which a starter
// (every ASCII character is one) ends.
const maxIterRun = 10

// iterSafe reports whether s is valid UTF-8 without a run of more than
// maxIterRun non-ASCII characters.
func iterSafe(s string) bool {
	run := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			run = 0
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return false
		}
		if run++; run > maxIterRun {
			return false
		}
		i += n
	}
	return true
}

// fold returns s folded, in one of f's buffers: valid until the next
// call. Long runs of ASCII are only lower-cased; the rest goes through
// foldUnicode in pieces cut just before an ASCII character, where no rule
// of it reaches across (an ASCII character is a starter that composes
// with no character before it, so decomposition, the marks' order, the
// accent rule and recomposition each end there). A cold index folds every
// chunk, and most chunks are ASCII but for a few letters; short ASCII
// runs stay in the pieces, because each piece costs the normaliser an
// allocation.
func (f *folder) fold(s string) []byte {
	out := f.out[:0]
	for s != "" {
		i := textfold.IndexNonASCII(s, 0)
		if i < 0 {
			out = appendLowerASCII(out, s)
			break
		}
		// The run's last character stays with what follows: a combining
		// mark after it belongs to it (e + U+0301 is é, folded to e).
		j := max(i-1, 0)
		out = appendLowerASCII(out, s[:j])
		k := nextASCIIRun(s, i)
		out = f.foldUnicode(out, s[j:k])
		s = s[k:]
	}
	f.it.InitString(norm.NFC, "") // keep no reference to the text
	f.out = out
	return out
}

// minASCIIRun is the shortest run of ASCII that fold lower-cases by
// itself.
const minASCIIRun = 64

// nextASCIIRun returns where the first run of at least minASCIIRun ASCII
// bytes of s[i:] starts, or len(s).
func nextASCIIRun(s string, i int) int {
	run := 0
	for k := i; k < len(s); k++ {
		if s[k] >= utf8.RuneSelf {
			run = 0
		} else if run++; run == minASCIIRun {
			return k + 1 - run
		}
	}
	return len(s)
}

// appendLowerASCII appends the ASCII text s lower-cased.
func appendLowerASCII(dst []byte, s string) []byte {
	n := len(dst)
	dst = append(dst, s...)
	for i, c := range dst[n:] {
		if 'A' <= c && c <= 'Z' {
			dst[n+i] = c + 'a' - 'A'
		}
	}
	return dst
}

// foldUnicode appends s folded (folder's rule, for any text), then
// recomposed.
func (f *folder) foldUnicode(dst []byte, s string) []byte {
	f.nfkd = f.normalize(norm.NFKD, f.nfkd[:0], s)
	from := len(dst)
	var base rune
	for d := f.nfkd; len(d) > 0; {
		r, n := utf8.DecodeRune(d)
		d = d[n:]
		if unicode.Is(unicode.Mn, r) {
			if textfold.FoldsMarks(base) {
				continue
			}
			dst = utf8.AppendRune(dst, r)
			continue
		}
		base = r
		if sf, ok := textfold.SpecialFold(unicode.ToLower(r)); ok {
			dst = append(dst, sf...)
			continue
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	if norm.NFC.IsNormal(dst[from:]) {
		return dst
	}
	f.nfc = f.normalize(norm.NFC, f.nfc[:0], unsafe.String(unsafe.SliceData(dst[from:]), len(dst)-from))
	return append(dst[:from], f.nfc...)
}

// isIdeograph reports whether r is written without spaces between words
// (Han, Hiragana, Katakana): each such character is a word of its own.
func isIdeograph(r rune) bool {
	if r < 0x2E80 {
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// joinsWords reports whether a separator rune keeps two words in one
// phrase for bigrams: spaces, hyphens, apostrophes, slashes.
func joinsWords(r rune) bool {
	switch r {
	case ' ', '\t', '-', '\'', '\u2019', '/', '_', '&', '*', '+', '#', '`', '~', '\u00a0':
		return true
	}
	return false
}

// appendWords splits a folded text into words: runs of letters, digits
// and marks, with each Han or kana character a word by itself.
func appendWords(dst []word, s string) []word {
	start := -1
	brk := false
	emit := func(end int) {
		if start >= 0 {
			w := s[start:end]
			dst = append(dst, word{text: w, afterBreak: brk})
			brk = false
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case r < utf8.RuneSelf && textfold.IsASCIIWordByte(byte(r)):
			if start < 0 {
				start = i
			}
		case r < utf8.RuneSelf:
			emit(i)
			if !joinsWords(r) {
				brk = true
			}
		case isIdeograph(r):
			emit(i)
			start = i
			emit(i + utf8.RuneLen(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
			if start < 0 {
				start = i
			}
		default:
			emit(i)
			if !joinsWords(r) {
				brk = true
			}
		}
	}
	emit(len(s))
	return dst
}

// wordWeight is the fixed idf prior of a folded word (see Builtin).
func wordWeight(w string) float32 {
	if maybeStopWord(w) {
		if _, ok := stopWords[w]; ok {
			return 0.2
		}
	}
	r, n := utf8.DecodeRuneInString(w)
	if n == len(w) {
		switch {
		case unicode.Is(unicode.Han, r):
			return 1
		case unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
			return 0.5
		}
		return 0.3
	}
	if !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) {
		return 0.6
	}
	return 1
}

// maybeStopWord reports whether w may be a stop word: some stop word has
// its first byte and its length (stopShapes), or w is too long for them
// to tell. Most words are not, and are told without a map look-up.
func maybeStopWord(w string) bool {
	return w != "" && (len(w) >= 16 || stopShapes[w[0]]&(1<<len(w)) != 0)
}

// stopShapes has, for each first byte, bit n set when a stop word of n
// bytes (n < 16) begins with it.
var stopShapes = func() (m [256]uint16) {
	for w := range stopWords {
		if len(w) < 16 {
			m[w[0]] |= 1 << len(w)
		}
	}
	return m
}()

// stopWords are frequent function words (already folded) of the languages
// Obsidian users write most.
var stopWords = func() map[string]struct{} {
	m := make(map[string]struct{})
	for _, list := range []string{
		// English
		`a about above after again against all am an and any are as at be because been before being
		below between both but by can could did do does doing down during each few for from further had
		has have having he her here hers herself him himself his how i if in into is it its itself just
		me more most my myself no nor not now of off on once only or other our ours ourselves out over
		own same she should so some such than that the their theirs them themselves then there these
		they this those through to too under until up very was we were what when where which while who
		whom why will with would you your yours yourself yourselves also may might must shall s t d ll
		m re ve don isn aren wasn weren doesn didn won wouldn shouldn couldn`,
		// French
		`au aux avec ce ces dans de des du elle en et eux il ils je la le les leur lui ma mais me meme
		mes moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi ton
		tu un une vos votre vous c j l n y est sont ete etre avoir fait cette cet`,
		// German
		`aber alle als also am an auch auf aus bei bin bis bist da dann das dass dem den der des die
		dies diese dieser du durch ein eine einem einen einer eines er es fur hat hatte ich ihr im in
		ist ja kein mit nach nicht noch nur oder sich sie sind so uber um und uns von vor war was wie
		wir wird zu zum zur`,
		// Spanish, Portuguese, Italian
		`al como con de del el en es esta este la las lo los mas mi no o para pero por que se sin su
		sus un una y ya ao aos com da das do dos em na nas no nos os ou um uma che con di e gli il la
		le nel per un una`,
		// Dutch
		`de het een en van ik te dat die in is niet op aan met als voor zijn er maar om ook bij dan
		naar nog uit wel tot je`,
	} {
		for _, w := range strings.Fields(list) {
			m[w] = struct{}{}
		}
	}
	return m
}()
