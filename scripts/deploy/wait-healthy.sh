#!/usr/bin/env bash
# Waits until every container of the compose project $1 reports healthy (up to ${2:-180} s); on
# timeout prints the ones that are not, with their last health check output, and fails.
set -euo pipefail
project=$1
timeout=${2:-180}
deadline=$(( $(date +%s) + timeout ))
while :; do
  mapfile -t ids < <(docker ps -aq --filter "label=com.docker.compose.project=$project")
  waiting=()
  for id in "${ids[@]}"; do
    state=$(docker inspect --format '{{.Name}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$id")
    case "$state" in
      *" running healthy" | *" running none") ;;
      *" exited "* | *" dead "* | *" created "* | *" restarting "*)
        echo "container not running: $state" >&2
        docker logs --tail 20 "$id" >&2 || true
        exit 1
        ;;
      *) waiting+=("$state") ;;
    esac
  done
  if [ "${#ids[@]}" -gt 0 ] && [ "${#waiting[@]}" -eq 0 ]; then
    echo "all ${#ids[@]} containers of $project are healthy"
    exit 0
  fi
  if [ "$(date +%s)" -gt "$deadline" ]; then
    echo "not healthy after $timeout s:" >&2
    for w in "${waiting[@]}"; do
      echo "  $w" >&2
      name=${w%% *}
      health_log='{{if .State.Health}}{{range .State.Health.Log}}    {{.Output}}{{end}}{{end}}'
      docker inspect --format "$health_log" "${name#/}" 2>/dev/null | tail -n 3 >&2 || true
    done
    exit 1
  fi
  sleep 2
done
