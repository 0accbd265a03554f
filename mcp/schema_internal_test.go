package mcp

import (
	"encoding/json"
	"log/slog"
	"path/filepath"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/vaultgraph/vaultgraph"
)

// TestToolsRegisteredWithRawSchema: every tool the server registers
// carries its input schema as JSON bytes, so a tools/call does not encode
// the schema again, and lists the same JSON as the tool defined.
func TestToolsRegisteredWithRawSchema(t *testing.T) {
	e := vaultgraph.New(vaultgraph.Options{Vault: filepath.Join("..", "testvault"), Index: filepath.Join(t.TempDir(), "index.db")})
	tools := &Tools{Engine: e}
	s := NewServer(tools, ServerOptions{})
	defs := append(tools.ServerTools(slog.New(slog.DiscardHandler)), tools.WriteTools(slog.New(slog.DiscardHandler))...)
	if len(defs) == 0 {
		t.Fatal("no tools defined")
	}
	for _, def := range defs {
		got := s.GetTool(def.Tool.Name)
		if got == nil {
			t.Fatalf("%s not registered", def.Tool.Name)
		}
		if len(got.Tool.RawInputSchema) == 0 {
			t.Errorf("%s registered with its schema as a structure, not JSON bytes", def.Tool.Name)
		}
		want, err := json.Marshal(def.Tool)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := json.Marshal(got.Tool); err != nil || string(b) != string(want) {
			t.Errorf("%s lists as\n%s (%v)\nwant\n%s", def.Tool.Name, b, err, want)
		}
	}
}

// BenchmarkHeaderBindings is what mcp-go does with a tool's schema at
// every tools/call over HTTP, for create_node as the server registers it.
func BenchmarkHeaderBindings(b *testing.B) {
	tools := &Tools{}
	for _, def := range tools.WriteTools(slog.New(slog.DiscardHandler)) {
		if def.Tool.Name != "create_node" {
			continue
		}
		for _, tool := range []mcpgo.Tool{def.Tool, rawSchema(def.Tool)} {
			name := "structure"
			if len(tool.RawInputSchema) > 0 {
				name = "raw"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					mcpgo.ExtractParamHeaderBindings(&tool)
				}
			})
		}
	}
}
