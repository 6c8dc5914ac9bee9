#!/usr/bin/env bash
# CI's image check (docs/decisions/3104): podman (this kind of machine has no Docker engine and no
# Docker Hub), the Dockerfile's FROM image made locally, then check.ts builds the image, runs the
# release command in it and checks the running container. Run from .ci/run after `npm test`, on
# the project's Node (scripts/node-lts.sh) with node_modules installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
if ! command -v podman >/dev/null || ! command -v debootstrap >/dev/null || ! command -v runc >/dev/null; then
  echo "--- installing podman, debootstrap and runc"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman debootstrap runc >/dev/null
  echo "    $(( $(date +%s) - started )) s"
fi
# podman's default ulimits and crun are refused on these machines (containers.conf says why).
export CONTAINERS_CONF="$PWD/.ci/image/containers.conf"
echo "--- $(podman --version), runtime $(podman info --format '{{.Host.OCIRuntime.Name}}')"
npx tsx .ci/image/check.ts
echo "--- the image part took $(( $(date +%s) - started )) s"
