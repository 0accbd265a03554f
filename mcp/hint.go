package mcp

import (
	"regexp"
	"strings"
	"unicode"
)

// Hints (the hint line, the omitted line and the advice in some warnings)
// name the parameters and tools that give more. They are written once,
// with each name in braces: {page: 3}, {limit}, {get_neighbors}; say
// writes them for MCP ("page: 3", "limit", "get_neighbors") or, when the
// answer goes to the command line (Presentation.Flags), as its flags and
// sub-commands ("--page 3", "--limit", "get-neighbors").
var hintName = regexp.MustCompile(`\{([A-Za-z_]+)(?:: ([^{}]*))?\}`)

// say writes the names of hint s for MCP, or for the command line when
// flags is set.
func say(s string, flags bool) string {
	if !strings.Contains(s, "{") {
		return s
	}
	return hintName.ReplaceAllStringFunc(s, func(m string) string {
		name, value, _ := strings.Cut(m[1:len(m)-1], ": ")
		switch {
		case !flags && value != "":
			return name + ": " + value
		case !flags:
			return name
		case strings.Contains(name, "_"): // a tool
			return strings.ReplaceAll(name, "_", "-")
		case value != "":
			return "--" + kebab(name) + " " + value
		}
		return "--" + kebab(name)
	})
}

// kebab writes a parameter name as its flag: maxTokens is max-tokens.
func kebab(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsUpper(r) {
			b.WriteByte('-')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
