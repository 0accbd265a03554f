#!/usr/bin/env bash
# Runs every fuzz target of the repository for FUZZTIME each (default 10s).
# Targets are found in the test files, so a new one is never forgotten.
# Crashers go to the package's testdata/fuzz and fail the run: fix the
# code, keep the input (go test runs it as a seed from then on).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-${FUZZTIME:-10s}}"
status=0
while IFS=: read -r file target; do
  pkg="./$(dirname "$file")"
  echo "fuzz $target ($pkg, $fuzztime)"
  go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" || status=1
done < <(grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' . | sed -e 's#^\./##' -e 's#:func #:#' | sort)
exit $status
