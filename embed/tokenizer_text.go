package embed

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"golang.org/x/text/unicode/norm"
)

// normalizer rewrites text before pre-tokenization.
type normalizer func(string) string

// preTokenizer splits normalized text into words; first is false for the
// text after an added token (Metaspace's prepend_scheme "first").
type preTokenizer func(s string, first bool) []string

// component is the JSON of a normalizer or pre-tokenizer.
type component struct {
	Type string `json:"type"`
	// BertNormalizer
	CleanText          *bool `json:"clean_text"`
	HandleChineseChars *bool `json:"handle_chinese_chars"`
	StripAccents       *bool `json:"strip_accents"`
	Lowercase          *bool `json:"lowercase"`
	// Strip
	StripLeft  bool `json:"strip_left"`
	StripRight bool `json:"strip_right"`
	// Replace
	Pattern struct {
		String *string `json:"String"`
		Regex  *string `json:"Regex"`
	} `json:"pattern"`
	Content string `json:"content"`
	// Prepend
	Prepend string `json:"prepend"`
	// Sequence
	Normalizers   []json.RawMessage `json:"normalizers"`
	Pretokenizers []json.RawMessage `json:"pretokenizers"`
	// Metaspace
	Replacement    string `json:"replacement"`
	PrependScheme  string `json:"prepend_scheme"`
	Split          *bool  `json:"split"`
	AddPrefixSpace *bool  `json:"add_prefix_space"`
	// Punctuation
	Behavior string `json:"behavior"`
	// Digits
	IndividualDigits bool `json:"individual_digits"`
}

func isNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}

func parseNormalizer(raw json.RawMessage) (normalizer, error) {
	if isNull(raw) {
		return func(s string) string { return s }, nil
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("%w: normalizer: %v", ErrFormat, err)
	}
	switch c.Type {
	case "BertNormalizer":
		clean, chinese, lower := boolOr(c.CleanText, true), boolOr(c.HandleChineseChars, true), boolOr(c.Lowercase, true)
		strip := boolOr(c.StripAccents, lower)
		return func(s string) string { return bertNormalize(s, clean, chinese, strip, lower) }, nil
	case "Lowercase":
		return strings.ToLower, nil
	case "NFC":
		return norm.NFC.String, nil
	case "NFD":
		return norm.NFD.String, nil
	case "NFKC", "Precompiled":
		return norm.NFKC.String, nil
	case "NFKD":
		return norm.NFKD.String, nil
	case "StripAccents":
		return removeMarks, nil
	case "Strip":
		return func(s string) string {
			if c.StripLeft {
				s = strings.TrimLeftFunc(s, unicode.IsSpace)
			}
			if c.StripRight {
				s = strings.TrimRightFunc(s, unicode.IsSpace)
			}
			return s
		}, nil
	case "Replace":
		switch {
		case c.Pattern.String != nil:
			from, to := *c.Pattern.String, c.Content
			if from == "" {
				return func(s string) string { return s }, nil
			}
			return func(s string) string { return strings.ReplaceAll(s, from, to) }, nil
		case c.Pattern.Regex != nil:
			re, err := regexp.Compile(*c.Pattern.Regex)
			if err != nil {
				return nil, fmt.Errorf("%w: Replace normalizer: %v", ErrFormat, err)
			}
			to := c.Content
			return func(s string) string { return re.ReplaceAllLiteralString(s, to) }, nil
		}
		return nil, fmt.Errorf("%w: Replace normalizer without a pattern", ErrFormat)
	case "Prepend":
		return func(s string) string {
			if s == "" {
				return s
			}
			return c.Prepend + s
		}, nil
	case "Sequence":
		seq, err := parseEach(c.Normalizers, parseNormalizer)
		if err != nil {
			return nil, err
		}
		return func(s string) string {
			for _, n := range seq {
				s = n(s)
			}
			return s
		}, nil
	}
	return nil, fmt.Errorf("%w: normalizer %q is not supported", ErrFormat, c.Type)
}

func boolOr(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// bertNormalize is BERT's normalizer: drop control characters and turn
// whitespace into spaces, put spaces around CJK ideographs, strip accents
// (NFD, then drop combining marks), lower-case.
func bertNormalize(s string, clean, chinese, strip, lower bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if clean {
			if r == 0 || r == unicode.ReplacementChar || isBertControl(r) {
				continue
			}
			if unicode.IsSpace(r) {
				r = ' '
			}
		}
		if chinese && textfold.IsCJKIdeograph(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	s = b.String()
	if strip {
		s = removeMarks(norm.NFD.String(s))
	}
	if lower {
		s = strings.ToLower(s)
	}
	return s
}

func isBertControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
}

// removeMarks drops nonspacing combining marks.
func removeMarks(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s)
}

// isBertPunct is the tokenizers library's punctuation test: ASCII
// punctuation (which includes symbols such as $ + < = > ^ ` | ~) or a
// Unicode punctuation character.
func isBertPunct(r rune) bool {
	if r < 0x80 {
		return r >= '!' && r <= '/' || r >= ':' && r <= '@' || r >= '[' && r <= '`' || r >= '{' && r <= '~'
	}
	return unicode.IsPunct(r)
}

func parsePreTokenizer(raw json.RawMessage) (preTokenizer, error) {
	if isNull(raw) {
		return func(s string, _ bool) []string { return []string{s} }, nil
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("%w: pre_tokenizer: %v", ErrFormat, err)
	}
	switch c.Type {
	case "BertPreTokenizer":
		return func(s string, _ bool) []string { return splitRunes(s, unicode.IsSpace, isBertPunct, false) }, nil
	case "WhitespaceSplit":
		return func(s string, _ bool) []string { return strings.FieldsFunc(s, unicode.IsSpace) }, nil
	case "Whitespace":
		return func(s string, _ bool) []string { return splitClasses(s, whitespaceClass) }, nil
	case "Punctuation":
		drop := c.Behavior == "removed"
		return func(s string, _ bool) []string {
			return splitRunes(s, func(rune) bool { return false }, isBertPunct, drop)
		}, nil
	case "Digits":
		if c.IndividualDigits {
			return func(s string, _ bool) []string {
				return splitRunes(s, func(rune) bool { return false }, unicode.IsDigit, false)
			}, nil
		}
		return func(s string, _ bool) []string {
			return splitClasses(s, func(r rune) int {
				if unicode.IsDigit(r) {
					return 1
				}
				return 2
			})
		}, nil
	case "Metaspace":
		return metaspace(c), nil
	case "Sequence":
		seq, err := parseEach(c.Pretokenizers, parsePreTokenizer)
		if err != nil {
			return nil, err
		}
		return func(s string, first bool) []string {
			words := []string{s}
			for _, p := range seq {
				var next []string
				for _, w := range words {
					next = append(next, p(w, first)...)
				}
				words = next
			}
			return words
		}, nil
	}
	return nil, fmt.Errorf("%w: pre_tokenizer %q is not supported", ErrFormat, c.Type)
}

// splitRunes splits s at runes for which drop holds (removed) and
// isolates runes for which isolate holds (each its own word, or removed
// when dropIsolated).
func splitRunes(s string, drop, isolate func(rune) bool, dropIsolated bool) []string {
	var out []string
	start := 0
	for i, r := range s {
		switch {
		case drop(r):
			if start < i {
				out = append(out, s[start:i])
			}
			start = i + len(string(r))
		case isolate(r):
			if start < i {
				out = append(out, s[start:i])
			}
			end := i + len(string(r))
			if !dropIsolated {
				out = append(out, s[i:end])
			}
			start = end
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// whitespaceClass is the class of r for the Whitespace pre-tokenizer,
// \w+|[^\w\s]+: 0 for space, 1 for a word character, 2 for the others.
func whitespaceClass(r rune) int {
	switch {
	case unicode.IsSpace(r):
		return 0
	case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_' || unicode.Is(unicode.Pc, r):
		return 1
	}
	return 2
}

// splitClasses cuts s where the class of its runes changes, and drops
// the runs of class 0.
func splitClasses(s string, class func(rune) int) []string {
	var out []string
	start, cur := 0, 0
	for i, r := range s {
		if c := class(r); c != cur {
			if cur != 0 && start < i {
				out = append(out, s[start:i])
			}
			start, cur = i, c
		}
	}
	if cur != 0 && start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// metaspace replaces spaces with the replacement (▁), prepends one as
// the scheme says, and optionally splits before each replacement.
func metaspace(c component) preTokenizer {
	rep := cmp.Or(c.Replacement, "▁")
	scheme := c.PrependScheme
	if scheme == "" {
		scheme = "always"
		if c.AddPrefixSpace != nil && !*c.AddPrefixSpace {
			scheme = "never"
		}
	}
	split := boolOr(c.Split, true)
	return func(s string, first bool) []string {
		s = strings.ReplaceAll(s, " ", rep)
		if (scheme == "always" || scheme == "first" && first) && !strings.HasPrefix(s, rep) {
			s = rep + s
		}
		if !split {
			return []string{s}
		}
		var out []string
		for s != "" { // a word runs up to the next replacement
			from := 0
			if strings.HasPrefix(s, rep) {
				from = len(rep)
			}
			end := len(s)
			if i := strings.Index(s[from:], rep); i >= 0 {
				end = from + i
			}
			out = append(out, s[:end])
			s = s[end:]
		}
		return out
	}
}

// parseEach parses the steps of a Sequence normalizer or pre-tokenizer.
func parseEach[C, T any](configs []C, parse func(C) (T, error)) ([]T, error) {
	var seq []T
	for _, c := range configs {
		t, err := parse(c)
		if err != nil {
			return nil, err
		}
		seq = append(seq, t)
	}
	return seq, nil
}
