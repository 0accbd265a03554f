#!/bin/sh
# profile.sh BIN OUTDIR "N1 N2 ..." writes CPU and heap profiles (pprof) of
# a cold index, a one-shot get-node and a serve start (initialize, then one
# get_node over stdio) on a generated vault of each size into OUTDIR:
#   cpu-index-N.prof  heap-index-N.prof
#   cpu-read-N.prof   heap-read-N.prof
#   cpu-serve-N.prof  heap-serve-N.prof
# Read them with: go tool pprof -top -cum BIN OUTDIR/cpu-read-N.prof
set -eu
bin=$1
out=$2
sizes=$3
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in $sizes; do
	v="$tmp/vault-$n"
	"$bin" gen "$v" --notes "$n" --seed 1 >/dev/null 2>&1
	VAULTGRAPH_CPUPROFILE="$out/cpu-index-$n.prof" VAULTGRAPH_HEAPPROFILE="$out/heap-index-$n.prof" \
		"$bin" index "$v" --embed none >/dev/null
	id=$(cd "$v" && find . -name '*.md' -not -path './.*' | sort | head -1 | sed 's|^\./||')
	"$bin" get-node "$id" --vault "$v" >/dev/null # the first read after an index writes the snapshot cache
	VAULTGRAPH_CPUPROFILE="$out/cpu-read-$n.prof" VAULTGRAPH_HEAPPROFILE="$out/heap-read-$n.prof" \
		"$bin" get-node "$id" --vault "$v" >/dev/null
	{
		printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"profile","version":"1"}}}'
		printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}'
		printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_node","arguments":{"id":"%s"}}}\n' "$id"
		sleep 2
	} | VAULTGRAPH_CPUPROFILE="$out/cpu-serve-$n.prof" VAULTGRAPH_HEAPPROFILE="$out/heap-serve-$n.prof" \
		"$bin" serve "$v" --embed none --no-watch >/dev/null 2>&1
	rm -rf "$v"
	echo "profile notes=$n: $out/cpu-{index,read,serve}-$n.prof, $out/heap-{index,read,serve}-$n.prof"
done
