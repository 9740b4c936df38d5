#!/usr/bin/env bash
# mpirun with the flags this kind of machine needs: as root Open MPI wants explicit consent, and
# with more ranks than cores it wants oversubscription allowed. Ranks are not bound to one core
# each, so a rank's reader thread (crd --reader-thread auto) can use a spare core.
# Usage: scripts/mpirun.sh -np N cmd…
set -euo pipefail
flags=()
[ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)
exec mpirun "${flags[@]}" --oversubscribe --bind-to none "$@"
