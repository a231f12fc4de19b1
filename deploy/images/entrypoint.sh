#!/bin/sh
# The image's entry point: the role to run (api or worker). exec keeps Node as the container's
# main process, so `docker stop` and Kubernetes deliver SIGTERM to it and it drains.
set -e
role=${1:-api}
case "$role" in
  api) exec /usr/local/bin/node /app/dist/src/bin/api.js ;;
  worker) exec /usr/local/bin/node /app/dist/src/bin/worker.js ;;
  *)
    echo "usage: vrp-solve api|worker (got '$role')" >&2
    exit 64
    ;;
esac
