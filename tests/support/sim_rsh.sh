#!/bin/sh
# mpirun's rsh agent for simulated nodes (sim_nodes.py): `sim_rsh.sh HOST CMD…` runs CMD (orted
# and its environment setup, one shell command line as ssh would receive it) inside HOST's
# namespaces. $CRD_SIM_NODES is the nodes' root directory; HOST's holder PID is in nodes/HOST/pid.
set -eu
host="$1"
shift
pidfile="${CRD_SIM_NODES:?CRD_SIM_NODES is not set}/nodes/$host/pid"
[ -r "$pidfile" ] || { echo "sim_rsh.sh: no simulated node '$host' under $CRD_SIM_NODES" >&2; exit 255; }
exec nsenter --target "$(cat "$pidfile")" --uts --mount -- sh -c "$*"
