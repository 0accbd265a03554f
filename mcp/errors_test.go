package mcp_test

// The SPEC error codes mapped from the Engine's sentinels (errors.go).

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

func TestCode(t *testing.T) {
	tests := []struct {
		desc string
		give error
		want string
	}{
		{desc: "invalid", give: vaultgraph.ErrInvalid, want: mcp.CodeInvalidParams},
		{desc: "outside vault", give: vaultgraph.ErrOutsideVault, want: mcp.CodeInvalidParams},
		{desc: "wrapped invalid", give: fmt.Errorf("limit: %w", vaultgraph.ErrInvalid), want: mcp.CodeInvalidParams},
		{desc: "exists", give: vaultgraph.ErrExists, want: mcp.CodeNodeExists},
		{desc: "wrapped exists", give: fmt.Errorf("create x: %w", vaultgraph.ErrExists), want: mcp.CodeNodeExists},
		{desc: "not found", give: vaultgraph.ErrNotFound, want: mcp.CodeNodeNotFound},
		{desc: "conflict", give: vaultgraph.ErrConflict, want: mcp.CodeConflict},
		{desc: "read-only", give: vaultgraph.ErrReadOnly, want: mcp.CodeReadOnly},
		{desc: "closed", give: vaultgraph.ErrClosed, want: mcp.CodeProviderError},
		{desc: "other", give: errors.New("disk on fire"), want: mcp.CodeProviderError},
		{desc: "cancelled", give: context.Canceled, want: mcp.CodeProviderError},
		{desc: "joined", give: errors.Join(errors.New("x"), vaultgraph.ErrConflict), want: mcp.CodeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := mcp.Code(tt.give); got != tt.want {
				t.Errorf("Code(%v) = %s, want %s", tt.give, got, tt.want)
			}
		})
	}
}

func TestSentinel(t *testing.T) {
	for _, sentinel := range []error{vaultgraph.ErrInvalid, vaultgraph.ErrExists, vaultgraph.ErrNotFound, vaultgraph.ErrConflict, vaultgraph.ErrReadOnly} {
		if got := mcp.Sentinel(mcp.Code(sentinel)); got != sentinel {
			t.Errorf("Sentinel(Code(%v)) = %v, want the same error", sentinel, got)
		}
	}
	for _, code := range []string{mcp.CodeProviderError, "NO_SUCH_CODE"} {
		if got := mcp.Sentinel(code); got != nil {
			t.Errorf("Sentinel(%s) = %v, want nil", code, got)
		}
	}
}
