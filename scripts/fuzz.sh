#!/usr/bin/env bash
# Runs every fuzz target of the repository for FUZZTIME each (default 10s).
# Targets are found in the test files, so a new one is never forgotten.
# Crashers go to the package's testdata/fuzz and fail the run: fix the
# code, keep the input (go test runs it as a seed from then on).
#
# A run that fails with a bare "context deadline exceeded" and writes no
# crasher is Go's fuzzing coordinator racing its own -fuzztime deadline
# (golang/go#75804, fixed in Go 1.27), not a finding: such a run counts
# as passed when the target's corpus, run again as tests, passes.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-${FUZZTIME:-10s}}"
status=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
files() { if [ -d "$1" ]; then find "$1" -type f | wc -l; else echo 0; fi; }
while IFS=: read -r file target; do
  pkg="./$(dirname "$file")"
  corpus="$(dirname "$file")/testdata/fuzz/$target"
  before=$(files "$corpus")
  echo "fuzz $target ($pkg, $fuzztime)"
  if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" 2>&1 | tee "$out"; [ "${PIPESTATUS[0]}" -eq 0 ]; then
    continue
  fi
  after=$(files "$corpus")
  if [ "$after" -eq "$before" ] && grep -q '^    context deadline exceeded$' "$out" &&
    go test -count=1 -run "^${target}\$" "$pkg" >/dev/null; then
    echo "fuzz $target: the fuzzing coordinator's deadline race (golang/go#75804), no crasher; its corpus passes"
    continue
  fi
  status=1
done < <(grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' . | sed -e 's#^\./##' -e 's#:func #:#' | sort)
exit $status
