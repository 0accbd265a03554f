package toontest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// splitKey splits "key: rest" at the key's colon (spec §7.4).
func splitKey(s string) (key, rest string, err error) {
	if strings.HasPrefix(s, `"`) {
		end := closingQuote(s, 0)
		if end < 0 {
			return "", "", errors.New("unterminated quoted key")
		}
		if key, err = unescape(s[1:end]); err != nil {
			return "", "", err
		}
		after := strings.TrimLeft(s[end+1:], " ")
		if !strings.HasPrefix(after, ":") {
			return "", "", errors.New("missing colon after key")
		}
		return key, trimSpaces(after[1:]), nil
	}
	colon := indexUnquoted(s, ':')
	if colon < 0 {
		return "", "", errors.New("missing colon after key")
	}
	return trimSpaces(s[:colon]), trimSpaces(s[colon+1:]), nil
}

// cells splits an inline array or row on the delimiter, outside quotes,
// and decodes each token.
func cells(s string, delim byte) ([]any, error) {
	var out []any
	for {
		i := indexUnquoted(s, delim)
		tok := s
		if i >= 0 {
			tok = s[:i]
		}
		v, err := primitive(tok)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if i < 0 {
			return out, nil
		}
		s = s[i+1:]
	}
}

// primitive decodes one value token (spec §4).
func primitive(tok string) (any, error) {
	tok = trimSpaces(tok)
	switch tok {
	case "":
		return "", nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	}
	if tok[0] == '"' {
		end := closingQuote(tok, 0)
		if end < 0 {
			return nil, errors.New("unterminated string")
		}
		if end != len(tok)-1 {
			return nil, fmt.Errorf("unexpected %.40q after a quoted string", tok[end+1:])
		}
		return unescape(tok[1:end])
	}
	if n, ok := toon.CanonicalNumber(tok); ok {
		return json.Number(n), nil
	}
	return tok, nil
}

// unescape resolves the escapes of spec §7.1 in the body of a quoted
// token: those of strconv.Unquote but for \a, \x, \U, octal and the like,
// which TOON does not have.
func unescape(s string) (string, error) {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		switch i++; {
		case i == len(s):
			return "", errors.New("backslash at the end of a string")
		case !strings.ContainsRune(`\"nrtu`, rune(s[i])):
			return "", fmt.Errorf(`invalid escape \%c`, s[i])
		}
	}
	u, err := strconv.Unquote(`"` + s + `"`)
	if err != nil {
		return "", fmt.Errorf("invalid escape in %.40q", s)
	}
	return u, nil
}

// closingQuote returns the index of the quote that closes the one at
// s[start], or -1.
func closingQuote(s string, start int) int {
	for i := start + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// indexUnquoted returns the index of the first c outside quoted tokens.
func indexUnquoted(s string, c byte) int {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch {
		case quoted && s[i] == '\\':
			i++
		case s[i] == '"':
			quoted = !quoted
		case !quoted && s[i] == c:
			return i
		}
	}
	return -1
}

// trimSpaces trims U+0020 only (spec §12), never tabs or other spaces.
func trimSpaces(s string) string { return strings.Trim(s, " ") }
