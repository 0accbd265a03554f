#!/usr/bin/env bash
# End-to-end test of `vaultgraph serve` with a client no one here wrote: the
# official MCP Inspector CLI (@modelcontextprotocol/inspector, --cli mode).
#
# It lists the tools (every tool must be there: the Inspector silently drops a
# tool whose input schema is not a proper object schema), calls each tool on a
# copy of testvault over stdio and checks the answers, reads a note resource,
# creates, renames (reading the rewritten links back from the files) and
# deletes notes in that copy, checks that `serve --read-only` lists only the
# read tools and refuses a write, and does the same over streamable HTTP with
# a bearer token. It exits non-zero on any mismatch.
#
# The Inspector needs Node >= 22.19; the pinned Node and Inspector are
# installed from npm into $E2E_CACHE (default e2e/.cache, not committed), so
# only npm itself must be on the machine.
#
#   BIN=bin/vaultgraph e2e/inspector.sh     (make e2e builds BIN first)
set -euo pipefail
cd "$(dirname "$0")/.."

INSPECTOR_VERSION=2.12.0 # @modelcontextprotocol/inspector
BIN=${BIN:-bin/vaultgraph}
E2E_CACHE=${E2E_CACHE:-e2e/.cache}

E2E_NAME=e2e
. e2e/node.sh # the scripts run from the repository root
need_bin_and_npm

# --- Node and the Inspector, pinned, cached --------------------------------
install_node_pkgs "inspector-$INSPECTOR_VERSION" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
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

# check_tools_list DESC WANT ARGS...: exactly the tools WANT (comma-separated,
# sorted), each with a description and an object schema; the read tools with
# read-only annotations, the write tools not read-only, update_node and
# delete_node destructive, create_node not.
read_tools='find_path,get_hubs,get_neighbors,get_node,get_related,list_nodes,list_tags,random_node,search,search_by_tags,vault_status'
all_tools='create_node,delete_node,find_path,get_hubs,get_neighbors,get_node,get_related,link_mentions,list_nodes,list_tags,random_node,repair_links,search,search_by_tags,update_node,vault_status'
check_tools_list() {
  local desc=$1 want=$2 out=$work/tools.json rc=0
  shift 2
  inspect "$out" "$@" --method tools/list || rc=$?
  if [ $rc -ne 0 ]; then
    fail "$desc tools/list: inspector exited $rc: $(cat "$out" "$out.err" | head -c 400)"
    return
  fi
  local names bad
  names=$(field "$out" 'r.result.tools.map(t => t.name).sort().join(",")')
  bad=$(field "$out" 'r.result.tools.filter(t => {
      const destructive = { create_node: false, update_node: true, delete_node: true, repair_links: true, link_mentions: false }[t.name];
      // Only hints that differ from the MCP defaults are sent.
      const a = { readOnlyHint: false, destructiveHint: true, ...(t.annotations || {}) };
      if (!t.description || t.inputSchema.type !== "object" || typeof t.inputSchema.properties !== "object") return true;
      if (destructive === undefined) return a.readOnlyHint !== true;
      return a.readOnlyHint !== false || a.destructiveHint !== destructive;
    }).map(t => t.name).join(",")')
  if [ "$names" != "$want" ]; then
    fail "$desc tools/list = $names, want $want"
  elif [ -n "$bad" ]; then
    fail "$desc tools/list: $bad lack a description, an object schema or the right read-only/destructive annotations"
  else
    pass "$desc tools/list: all $(($(tr -cd , <<<"$want" | wc -c) + 1)) tools"
  fi
}

# file_has DESC FILE TEXT: the vault file FILE (relative to $work/vault)
# contains TEXT.
file_has() {
  if grep -qF -- "$3" "$work/vault/$2" 2>/dev/null; then pass "$1"; else fail "$1: $2 does not hold $3: $(head -c 400 "$work/vault/$2" 2>&1)"; fi
}

# vault_sum: one checksum of every file of the vault copy (not the index).
vault_sum() {
  (cd "$work/vault" && find . -type f ! -path './.vaultgraph/*' | LC_ALL=C sort | while IFS= read -r f; do printf '%s\n' "$f"; cksum <"$f"; done) | cksum
}

start=$(date +%s)
echo "e2e: $(inspector --version 2>/dev/null | head -1) on node $(node --version), server $BIN"

# --- stdio --------------------------------------------------------------
check_tools_list stdio "$all_tools" "${stdio[@]}"
rc=0
inspect "$work/strict.json" "${stdio[@]}" --method tools/list --strict || rc=$?
if [ $rc -eq 0 ]; then pass "stdio tools/list --strict: schemas portable"; else fail "tools/list --strict exited $rc: $(head -c 600 "$work/strict.json.err")"; fi

call "get_node Home (Markdown)" 'id: Home.md · tags: home, index, MOC' -- "${stdio[@]}" --method tools/call --tool-name get_node --tool-arg id=Home
call "get_node depth 1 (lower case, no .md)" 'incoming: 2 · outgoing: 3' -- "${stdio[@]}" --method tools/call --tool-name get_node \
  --tool-args-json '{"id":"projects/alpha plan","depth":1}'
call "get_node missing: a warning naming it" '=warning: no note matches "No Such Note"' -- "${stdio[@]}" --method tools/call --tool-name get_node --tool-arg 'id=No Such Note'
call "get_neighbors in (TOON)" 'total: 6' -- "${stdio[@]}" --method tools/call --tool-name get_neighbors --tool-args-json '{"id":"HOME","direction":"in"}'
call "find_path" '=3 links: Deep/Nested/Folder/Deep Note.md → Home.md → Notes/Meeting Notes.md → Notes/東京 Trip.md' -- \
  "${stdio[@]}" --method tools/call --tool-name find_path --tool-args-json '{"source":"Deep Note","target":"東京 Trip"}'
call "find_path directed (JSON)" '={"path":["Notes/東京 Trip.md","Notes/Meeting Notes.md","Home.md"],"length":2}' -- \
  "${stdio[@]}" --method tools/call --tool-name find_path --tool-args-json '{"source":"東京 Trip","target":"Home","directed":true,"format":"json"}'
call "find_path none is null" '=null' -- "${stdio[@]}" --method tools/call --tool-name find_path --tool-arg source=Home target=Orphan
call "get_hubs in_degree minimal" $'=metric: in_degree\nnodes[1]{id,score}:\n  Home.md,6\ntotal: 8\npage: 1\ntotalPages: 8\nhint: "page 1 of 8: pass page: 2 for more"' -- "${stdio[@]}" --method tools/call --tool-name get_hubs --tool-args-json '{"limit":1,"detail":"minimal"}'
call "get_hubs pagerank" '  Home.md,0.' -- "${stdio[@]}" --method tools/call --tool-name get_hubs --tool-arg metric=pagerank limit=3
call "search_by_tags" 'total: 3' -- "${stdio[@]}" --method tools/call --tool-name search_by_tags --tool-args-json '{"tags":["project"]}'
call "list_nodes folder" $'total: 4\npage: 1\ntotalPages: 1' -- "${stdio[@]}" --method tools/call --tool-name list_nodes \
  --tool-args-json '{"folder":"Notes","sortBy":["-title"]}'
call "list_nodes pages" 'hint: "page 1 of 5: pass page: 2 for more"' -- "${stdio[@]}" --method tools/call --tool-name list_nodes \
  --tool-args-json '{"sortBy":["-outDegree","title"],"limit":3}'
call "list_tags" $'tags[17]{tag,count}:\n  project,3\n' -- "${stdio[@]}" --method tools/call --tool-name list_tags
call "random_node tagged" 'id: Notes/東京 Trip.md' -- "${stdio[@]}" --method tools/call --tool-name random_node --tool-args-json '{"tags":["travel"]}'
call "vault_status" $'notes: 13\nlinks: 30\nbrokenLinks: 2\n' -- "${stdio[@]}" --method tools/call --tool-name vault_status
call "get_related" $'seeds[1]: Projects/Beta.md\nnodes[' -- "${stdio[@]}" --method tools/call --tool-name get_related --tool-args-json '{"ids":["Beta"]}'
call "link_mentions dry run" '"dryRun":true' -- "${stdio[@]}" --method tools/call --tool-name link_mentions --tool-args-json '{"id":"Home","dryRun":true,"format":"json"}'
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

# --- writes over stdio, on the copy ------------------------------------------
# Each call starts a server (which indexes the copy incrementally), so each one
# also checks that the previous one left files and index in step. The notes
# created are deleted and the rename undone: the copy ends as testvault.
sum0=$(vault_sum)
call "create_node" $'id: Inbox/E2E Note.md\ntitle: E2E Note\nhash: ' -- "${stdio[@]}" --method tools/call --tool-name create_node \
  --tool-args-json '{"title":"E2E Note","directory":"Inbox","content":"Links to [[Beta]].\n","tags":["e2e"]}'
file_has "create_node wrote the file" "Inbox/E2E Note.md" $'---\nLinks to [[Beta]].\n'
call "create_node again: NODE_EXISTS" 'NODE_EXISTS: ' error -- "${stdio[@]}" --method tools/call --tool-name create_node \
  --tool-args-json '{"title":"e2e note","directory":"inbox"}'
call "get_node of the new note" 'id: Inbox/E2E Note.md · tags: e2e' -- "${stdio[@]}" --method tools/call --tool-name get_node --tool-arg 'id=E2E Note'
sum1=$(vault_sum)
call "update_node rename, dry run" $'dryRun: true\nfiles[5]{path,action,from,links}:\n  Projects/Gamma.md,move,Projects/Beta.md,0\n' -- "${stdio[@]}" \
  --method tools/call --tool-name update_node --tool-args-json '{"id":"Beta","title":"Gamma","dryRun":true}'
if [ "$(vault_sum)" = "$sum1" ]; then pass "update_node dry run wrote nothing"; else fail "update_node dry run changed the vault"; fi
call "update_node rename rewrites links" $'links[6]{path,line,old,new}:\n  Home.md,12,"[[Beta#Goals]]","[[Gamma#Goals]]"\n' -- "${stdio[@]}" \
  --method tools/call --tool-name update_node --tool-args-json '{"id":"Beta","title":"Gamma"}'
file_has "rename: wikilink with heading rewritten" "Home.md" '[[Gamma#Goals]] links to a heading, [[Gamma#^block1]] to a block.'
file_has "rename: alias kept" "Projects/Alpha Plan.md" "[[Gamma#Goals|Beta's goals]]"
file_has "rename: frontmatter link rewritten" "Notes/Meeting Notes.md" '  - "[[Gamma]]"'
file_has "rename: link in the new note rewritten" "Inbox/E2E Note.md" 'Links to [[Gamma]].'
if [ -f "$work/vault/Projects/Gamma.md" ] && [ ! -e "$work/vault/Projects/Beta.md" ]; then pass "rename: file moved"; else fail "rename: Projects/Gamma.md missing or Projects/Beta.md left"; fi
call "get_node of the renamed note (JSON)" '"incomingCount":4,' -- "${stdio[@]}" --method tools/call --tool-name get_node \
  --tool-args-json '{"id":"Gamma","depth":1,"format":"json"}'
call "update_node stale ifMatch: CONFLICT" 'CONFLICT: ' error -- "${stdio[@]}" --method tools/call --tool-name update_node \
  --tool-args-json '{"id":"Gamma","content":"lost","ifMatch":"0000000000000000"}'
call "update_node missing: NODE_NOT_FOUND" 'NODE_NOT_FOUND: ' error -- "${stdio[@]}" --method tools/call --tool-name update_node \
  --tool-args-json '{"id":"Beta","content":"x"}'
call "create_node outside the vault: INVALID_PARAMS" 'INVALID_PARAMS: ' error -- "${stdio[@]}" --method tools/call --tool-name create_node \
  --tool-args-json '{"title":"Escape","directory":"../../escape"}'
call "update_node move outside the vault: INVALID_PARAMS" 'INVALID_PARAMS: ' error -- "${stdio[@]}" --method tools/call --tool-name update_node \
  --tool-args-json '{"id":"Gamma","directory":"../escape"}'
if [ -z "$(find "$work" -maxdepth 2 -iname '*escape*' -print -quit)" ]; then pass "nothing written outside the vault"; else fail "found $(find "$work" -maxdepth 2 -iname '*escape*')"; fi
call "update_node rename back (Markdown)" $'id: Projects/Beta.md\ntitle: Beta\n' -- "${stdio[@]}" --method tools/call --tool-name update_node \
  --tool-args-json '{"id":"Gamma","title":"Beta","format":"markdown"}'
call "create_node a note linking to it" 'id: Inbox/E2E Link.md' -- "${stdio[@]}" --method tools/call --tool-name create_node \
  --tool-args-json '{"title":"E2E Link","directory":"Inbox","content":"[[E2E Note]]"}'
call "delete_node: broken links in warnings" '"warnings":["now a broken link: [[E2E Note]] in Inbox/E2E Link.md (line 1)"]' -- "${stdio[@]}" \
  --method tools/call --tool-name delete_node --tool-args-json '{"id":"E2E Note","format":"json"}'
call "delete_node again: deleted false" $'=deleted: false\nfiles: []\nwarnings[1]: "no note matches \\"E2E Note\\""' -- "${stdio[@]}" --method tools/call --tool-name delete_node --tool-arg 'id=E2E Note'
call "delete_node the other" 'deleted: true' -- "${stdio[@]}" --method tools/call --tool-name delete_node --tool-arg 'id=Inbox/E2E Link.md'
call "repair_links: nothing pending" $'=repairs: []\ndryRun: true\nfiles: []' -- "${stdio[@]}" --method tools/call --tool-name repair_links
rmdir "$work/vault/Inbox" 2>/dev/null || true
if [ "$(vault_sum)" = "$sum0" ] && diff -r -x .vaultgraph testvault "$work/vault" >/dev/null; then
  pass "after create, rename, rename back and delete the copy equals testvault byte for byte"
else
  fail "the copy differs from testvault: $(diff -r -x .vaultgraph testvault "$work/vault" | head -c 600)"
fi
call "vault_status after the writes" $'notes: 13\nlinks: 30\nbrokenLinks: 2\n' -- "${stdio[@]}" --method tools/call --tool-name vault_status

# --- serve --read-only ------------------------------------------------------
read_only=("$BIN" serve --read-only --no-watch --index "$work/index.db" "$work/vault")
check_tools_list "read-only" "$read_tools" "${read_only[@]}"
for args in '{"title":"Sneaky"}' '{"id":"Home","content":"gone"}'; do
  tool=create_node
  [[ $args == *'"id"'* ]] && tool=update_node
  rc=0
  inspect "$work/ro.json" "${read_only[@]}" --method tools/call --tool-name "$tool" --tool-args-json "$args" || rc=$?
  if [ $rc -ne 0 ] && grep -qiE 'not found|READ_ONLY|unknown' "$work/ro.json" "$work/ro.json.err"; then
    pass "read-only $tool: refused"
  else
    fail "read-only $tool: exit $rc, want an error: $(cat "$work/ro.json" "$work/ro.json.err" | head -c 400)"
  fi
done
if [ "$(vault_sum)" = "$sum0" ]; then pass "read-only server wrote nothing"; else fail "read-only server changed the vault"; fi

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
  check_tools_list "http" "$all_tools" --server-url "$url" "${auth[@]}"
  call "http get_node" 'id: Home.md · tags: home, index, MOC' -- --server-url "$url" "${auth[@]}" --method tools/call --tool-name get_node --tool-arg id=Home
  call "http get_hubs (JSON)" '={"metric":"in_degree","nodes":[{"id":"Home.md","score":6}],"total":8,"page":1,"totalPages":8,"hint":"page 1 of 8: pass page: 2 for more"}' -- --server-url "$url" "${auth[@]}" --method tools/call --tool-name get_hubs --tool-args-json '{"limit":1,"detail":"minimal","format":"json"}'
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
