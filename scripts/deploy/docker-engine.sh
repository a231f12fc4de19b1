#!/usr/bin/env bash
# Makes sure a Docker engine answers: if `docker info` fails, starts Debian's dockerd (through
# systemd when it runs, else in the background with its log in var/dockerd.log) and waits for it.
# Exits non-zero with the reason when no engine can run on this machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
docker info >/dev/null 2>&1 && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "no Docker engine answers and starting one needs root (sudo systemctl start docker)" >&2
  exit 1
fi
if [ -d /run/systemd/system ] && systemctl start docker 2>/dev/null; then
  :
else
  mkdir -p "$ROOT/var"
  echo "starting dockerd in the background (log: var/dockerd.log)"
  nohup dockerd ${DOCKERD_FLAGS:-} >"$ROOT/var/dockerd.log" 2>&1 &
fi
for _ in $(seq 1 60); do
  docker info >/dev/null 2>&1 && exit 0
  sleep 1
done
echo "the Docker engine did not start within 60 s; see var/dockerd.log:" >&2
tail -n 20 "$ROOT/var/dockerd.log" >&2 2>/dev/null || true
exit 1
