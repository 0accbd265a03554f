#!/usr/bin/env bash
# Refreshes web/assets/vendor/graph.js (sigma.js, graphology, ForceAtlas2)
# from npm at the exact versions package.json and package-lock.json pin,
# and writes their licences beside it. `make web-vendor` runs it.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
esbuild="node_modules/@esbuild/$(node -p 'process.platform + "-" + process.arch')/bin/esbuild"
"$esbuild" entry.js --bundle --minify --format=iife --target=es2020 --legal-comments=none \
  --outfile=../assets/vendor/graph.js
{
  echo "web/assets/vendor/graph.js bundles these npm packages (web/vendor/package-lock.json):"
  for p in graphology graphology-layout-forceatlas2 graphology-utils sigma events; do
    v=$(node -p "require('./node_modules/$p/package.json').version")
    echo
    echo "==== $p $v ===="
    cat node_modules/$p/LICENSE* 
  done
} > ../assets/vendor/LICENSES.txt
echo "web-vendor: wrote web/assets/vendor/graph.js and LICENSES.txt"
