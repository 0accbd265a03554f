#!/usr/bin/env bash
# Checks that imports flow one way (STYLE.md): graph uses the standard
# library only; internal/textfold the standard library and x/text; no core package (root, vault, graph, embed, internal/...)
# imports mcp or cmd; mcp and cmd never import internal/store directly
# (they go through the Engine); internal/testutil and internal/toon/toontest
# are imported by _test.go files only.
set -euo pipefail
mod=$(go list -m)
fail=0

# graph: standard library only (a standard package has no dot in its first element).
bad=$(go list -deps ./graph | grep -v "^$mod/graph$" | awk -F/ '$1 ~ /\./' || true)
if [ -n "$bad" ]; then echo "graph imports non-standard packages:"; echo "$bad"; fail=1; fi

# internal/textfold: the standard library and golang.org/x/text only, so
# every package (embed, vault, store, mcp) may use it.
bad=$(go list -deps ./internal/textfold | grep -v "^$mod/internal/textfold$" | grep -v "^golang.org/x/text/" | awk -F/ '$1 ~ /\./' || true)
if [ -n "$bad" ]; then echo "internal/textfold imports more than x/text:"; echo "$bad"; fail=1; fi

for pkg in . ./vault ./vault/commit ./graph ./embed $(go list ./internal/... 2>/dev/null | sed "s#^$mod#.#"); do
  [ -d "$pkg" ] || continue
  bad=$(go list -deps "$pkg" | grep -E "^$mod/(mcp|cmd)(/|$)" || true)
  if [ -n "$bad" ]; then echo "core package $pkg imports $bad"; fail=1; fi
done

# vault/commit: the crash-safe commit sits below the engine: it may import
# vault, never the root package (the engine), the store, mcp or cmd; and
# vault never imports it.
bad=$(go list -deps ./vault/commit | grep -E "^$mod$|^$mod/(mcp|cmd|internal/store)(/|$)" || true)
if [ -n "$bad" ]; then echo "vault/commit imports $bad"; fail=1; fi
bad=$(go list -deps ./vault | grep -E "^$mod/vault/commit$" || true)
if [ -n "$bad" ]; then echo "vault imports vault/commit"; fail=1; fi

bad=$(go list -f '{{join .Imports "\n"}}' ./mcp ./cmd/... | grep -E "^$mod/internal/store(/|$)" || true)
if [ -n "$bad" ]; then echo "mcp imports the store directly: $bad"; fail=1; fi

# web: the web app reads through the Engine, like mcp: never the store,
# mcp or cmd.
bad=$(go list -f '{{join .Imports "\n"}}' ./web | grep -E "^$mod/(internal/store|mcp|cmd)(/|$)" || true)
if [ -n "$bad" ]; then echo "web imports $bad"; fail=1; fi

# internal/testutil and internal/toon/toontest are for tests: no non-test
# file imports them.
bad=$(go list -f '{{.ImportPath}}: {{join .Imports " "}}' ./... | grep -E " $mod/internal/(testutil|toon/toontest)( |$)" || true)
if [ -n "$bad" ]; then echo "non-test code imports a test-only package:"; echo "$bad"; fail=1; fi

[ "$fail" = 0 ] && echo "deps: imports flow one way"
exit $fail
