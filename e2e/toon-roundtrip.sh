#!/usr/bin/env bash
# Checks the CLI's TOON output against a TOON decoder no one here wrote: the
# reference implementation, @toon-format/toon, in strict mode.
#
# Every read command runs on testvault and on a generated vault, at each
# --detail (minimal, standard, full), twice: --format toon and --format json
# with the same arguments. The TOON answer, decoded by the reference decoder,
# must deep-equal the JSON answer (whose rows keep tags and aliases as lists,
# joined as the TOON table writes them), keys in the same order. random-node runs
# with a tag only one note has, so that both runs pick the same note (the
# generated vault gets such a tag on one note). It prints one line per case
# and a summary, and exits non-zero on any mismatch.
#
# The index files live in a temporary folder, so nothing is written into
# testvault. The pinned Node and @toon-format/toon are installed from npm
# into $E2E_CACHE (default e2e/.cache, not committed), as inspector.sh does.
#
#   BIN=bin/vaultgraph e2e/toon-roundtrip.sh    (make e2e builds BIN first)
#   NOTES=10000 e2e/toon-roundtrip.sh           (a bigger generated vault)
set -euo pipefail
cd "$(dirname "$0")/.."

TOON_VERSION=4.4.0   # @toon-format/toon, the reference TOON implementation (spec v4.0)
BIN=${BIN:-bin/vaultgraph}
E2E_CACHE=${E2E_CACHE:-e2e/.cache}
NOTES=${NOTES:-1000}

E2E_NAME=toon-roundtrip
. e2e/node.sh # the scripts run from the repository root
need_bin_and_npm

# --- Node and the reference decoder, pinned, cached ------------------------
install_node_pkgs "toon-$TOON_VERSION" "@toon-format/toon@$TOON_VERSION"
node=$prefix/node_modules/.bin/node
[ "$("$node" --version)" = "v$NODE_VERSION" ] || die "$node is $("$node" --version), want v$NODE_VERSION"

# --- a generated vault and index files of our own --------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/vaultgraph-toon.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset VAULTGRAPH_VAULT VAULTGRAPH_INDEX
timeout=()
command -v timeout >/dev/null && timeout=(timeout 120)

start=$(date +%s)
"${timeout[@]}" "$BIN" gen "$work/gen" --notes "$NOTES" >/dev/null
cases=$work/cases.tsv
: >"$cases"
n=0

# check VAULT IGNORE ARGS...: the command ARGS on VAULT at each detail, as
# TOON and as JSON, recorded in $cases; IGNORE lists keys whose values
# change from one run to the next (comma-separated).
check() {
  local vault=$1 ignore=$2 detail base rc
  shift 2
  for detail in minimal standard full; do
    n=$((n + 1))
    base=$work/case$n
    rc=0
    "${timeout[@]}" "$BIN" "$@" --vault "$vault" --index "$work/$(basename "$vault").db" --detail "$detail" \
      --format toon >"$base.toon" 2>"$base.err" || rc=$?
    [ $rc -eq 0 ] && { "${timeout[@]}" "$BIN" "$@" --vault "$vault" --index "$work/$(basename "$vault").db" \
      --detail "$detail" --format json >"$base.json" 2>>"$base.err" || rc=$?; }
    printf '%s\t%s\t%s\t%s\n' "$(basename "$vault"): $* --detail $detail" "$base" "$rc" "$ignore" >>"$cases"
  done
}

# field FILE EXPR: a JavaScript expression over the JSON in FILE, printed.
field() {
  "$node" -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    process.stdout.write(String((function (r) { return eval(process.argv[2]); })(r)))' "$1" "$2"
}

volatile=loadTimeMs,indexBytes,lastSync # vault-status timings and sizes

# every read command on testvault
check testvault "" get-node Home --depth 1
check testvault "" get-neighbors Home
check testvault "" find-path "Deep Note" "東京 Trip"
check testvault "" get-hubs --metric pagerank --limit 50
check testvault "" search-by-tags project
check testvault "" list-nodes --sort-by -outDegree,title --limit 100
check testvault "" list-tags
check testvault "" random-node --tags food # one note has #food
check testvault "$volatile" vault-status
check testvault "" search alpha plan

# and on the generated vault, with notes picked from its hubs
gen=$work/gen
"$BIN" get-hubs --vault "$gen" --index "$work/gen.db" --limit 2 --detail minimal --format json >"$work/hubs.json"
"$BIN" list-nodes --vault "$gen" --index "$work/gen.db" --sort-by inDegree --limit 1 --detail minimal \
  --format json >"$work/rim.json"
hub=$(field "$work/hubs.json" 'r.nodes[0].id')
second=$(field "$work/hubs.json" 'r.nodes[1].id')
rim=$(field "$work/rim.json" 'r.nodes[0].id')
tag=$("$BIN" list-tags --vault "$gen" --index "$work/gen.db" --limit 1 --format json >"$work/tags.json" &&
  field "$work/tags.json" 'r.tags[0].tag')
# get-hubs leaves out a title that only repeats the file name: then the
# file name is the title
title=$(field "$work/hubs.json" 'r.nodes[0].title || r.nodes[0].id.split("/").pop().replace(/\.md$/, "")')
# A tag only the second hub has, for random-node (the next command indexes
# the change).
printf '\n#e2e-random\n' >>"$gen/$second"
check "$gen" "" get-node "$hub" --depth 1
check "$gen" "" get-neighbors "$hub" --limit 50
check "$gen" "" find-path "$rim" "$second"
check "$gen" "" get-hubs --metric pagerank --limit 50
check "$gen" "" search-by-tags "$tag" --limit 100
check "$gen" "" list-nodes --sort-by -inDegree,title --limit 100
check "$gen" "" list-tags --limit 1000
check "$gen" "" random-node --tags e2e-random
check "$gen" "$volatile" vault-status
check "$gen" "" search "$title"

rc=0
"$node" e2e/toon-roundtrip.mjs "$prefix" "$cases" || rc=$?
echo "toon-roundtrip: $n cases on testvault and a generated vault of $NOTES notes in $(($(date +%s) - start))s"
exit $rc
