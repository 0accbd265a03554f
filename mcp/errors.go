package mcp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vaultgraph/vaultgraph"
)

// The error codes of SPEC.md.
const (
	CodeInvalidParams = "INVALID_PARAMS"
	CodeNodeExists    = "NODE_EXISTS"
	CodeNodeNotFound  = "NODE_NOT_FOUND"
	CodeConflict      = "CONFLICT"
	CodeReadOnly      = "READ_ONLY"
	CodeProviderError = "PROVIDER_ERROR"
)

// codes are the Engine's sentinels and their SPEC.md codes, in the order
// Code tries them: the one home of the mapping, both ways.
var codes = []struct {
	sentinel error
	code     string
}{
	{vaultgraph.ErrInvalid, CodeInvalidParams},
	{vaultgraph.ErrExists, CodeNodeExists},
	{vaultgraph.ErrNotFound, CodeNodeNotFound},
	{vaultgraph.ErrConflict, CodeConflict},
	{vaultgraph.ErrReadOnly, CodeReadOnly},
}

// Code maps an error from the Engine or a handler to its SPEC.md code.
// Anything that is not a caller's mistake is PROVIDER_ERROR.
func Code(err error) string {
	for _, c := range codes {
		if errors.Is(err, c.sentinel) {
			return c.code
		}
	}
	return CodeProviderError
}

// Sentinel is the Engine's error of a SPEC.md code, the inverse of Code;
// nil for PROVIDER_ERROR and unknown codes.
func Sentinel(code string) error {
	for _, c := range codes {
		if c.code == code {
			return c.sentinel
		}
	}
	return nil
}

// invalid returns an ErrInvalid naming the parameter and what to do.
func invalid(param, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", vaultgraph.ErrInvalid, param, fmt.Sprintf(format, args...))
}

// required is the error of the required parameter param left blank, with
// hint, when not empty, saying what it takes; nil when value is given.
func required(param, value, hint string) error {
	switch {
	case strings.TrimSpace(value) != "":
		return nil
	case hint == "":
		return invalid(param, "required")
	}
	return invalid(param, "required: %s", hint)
}

// Message is err's text without the generic prefix its code already says
// ("invalid parameters: ...").
func Message(err error) string {
	msg := err.Error()
	for _, c := range codes {
		msg = strings.Replace(msg, c.sentinel.Error()+": ", "", 1)
	}
	return msg
}
