#!/usr/bin/env bash
# The project's Node: the exact version the Dockerfile's NODE_VERSION names, from the npm
# registry's official binaries (node-<os>-<arch>), unpacked once under ~/.cache/bidyard-node.
# Prints the folder to put first on PATH (its bin/) and to give node-gyp (npm_config_nodedir),
# so native modules build against this Node's own headers without any other download.
#   eval "$(bash scripts/node-lts.sh --env)"   # then node, npm and npx use it
# (docs/decisions/3101-node-24.md)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
version="$(sed -n 's/^ARG NODE_VERSION=\([0-9.]*\)$/\1/p' "$here/Dockerfile")"
[ -n "$version" ] || { echo "no ARG NODE_VERSION=x.y.z in the Dockerfile" >&2; exit 1; }
case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) echo "unsupported OS" >&2; exit 1 ;; esac
case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) echo "unsupported CPU" >&2; exit 1 ;; esac
dir="${BIDYARD_NODE_CACHE:-$HOME/.cache/bidyard-node}/$version-$os-$arch"
if [ ! -x "$dir/bin/node" ]; then
  staging="$(mktemp -d)"
  (cd "$staging" && npm pack --silent "node-$os-$arch@$version" >/dev/null && tar xzf ./*.tgz)
  mkdir -p "$(dirname "$dir")"
  rm -rf "$dir" && mv "$staging/package" "$dir" && rm -rf "$staging"
fi
"$dir/bin/node" --version >/dev/null
if [ "${1:-}" = "--env" ]; then
  echo "export PATH=\"$dir/bin:\$PATH\" npm_config_nodedir=\"$dir\""
else
  echo "$dir"
fi
