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

// Code maps an error from the Engine or a handler to its SPEC.md code.
// Anything that is not a caller's mistake is PROVIDER_ERROR.
func Code(err error) string {
	switch {
	case errors.Is(err, vaultgraph.ErrInvalid):
		return CodeInvalidParams
	case errors.Is(err, vaultgraph.ErrExists):
		return CodeNodeExists
	case errors.Is(err, vaultgraph.ErrNotFound):
		return CodeNodeNotFound
	case errors.Is(err, vaultgraph.ErrConflict):
		return CodeConflict
	case errors.Is(err, vaultgraph.ErrReadOnly):
		return CodeReadOnly
	}
	return CodeProviderError
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
	for _, sentinel := range []error{vaultgraph.ErrInvalid, vaultgraph.ErrNotFound, vaultgraph.ErrExists, vaultgraph.ErrReadOnly, vaultgraph.ErrConflict} {
		msg = strings.Replace(msg, sentinel.Error()+": ", "", 1)
	}
	return msg
}
