#!/usr/bin/env bash
# A real single-node Slurm (Debian's slurm-wlm 22.05 + munge) under a scratch directory, for testing
# the slurm/*.sbatch scripts without a cluster.
#
# Usage: scripts/slurm_local.sh start|stop|status|env [DIR]
#   DIR (or $CRD_SLURM_DIR, default /tmp/crd-slurm-$UID) holds slurm.conf, state, spool, logs and a
#   private munged socket, so nothing under /etc or /run is touched and a system munged is not needed.
#   start   writes the config, starts munged, slurmctld and slurmd, waits until the node is idle.
#   stop    stops the daemons this script started, by the PIDs it recorded (never by name).
#   status  prints the node state (exit 1 if the cluster is not up).
#   env     prints `export SLURM_CONF=…` for eval, so sbatch/srun/sinfo talk to this cluster.
# Environment: CRD_SLURM_CPUS (default 2, per node), CRD_SLURM_PORT (slurmctld port, default 6817;
# the slurmds use the next ones), CRD_SLURM_START_TIMEOUT (seconds, default 30).
# Several nodes (tests/multinode: simulated nodes on this machine):
#   CRD_SLURM_NODES      "NAME=ADDRESS …", e.g. "nodeA=127.0.0.2 nodeB=127.0.0.3" (loopback
#                        addresses only): one slurmd per node, `-N NAME`, its own port, spool
#                        directory, PID and log file. Default: one node, localhost.
#   CRD_SLURM_NODE_EXEC  a command run as `EXEC NAME CMD…` that runs CMD on node NAME (e.g.
#                        tests/support/sim_rsh.sh); without it every slurmd runs on this host.
#   DIR must then be on a file system every node sees (not a node-local /tmp).
# Needs root (slurmd runs jobs as the submitting user; without cgroups it must be root here).
set -euo pipefail

cmd="${1:-}"
dir="${2:-${CRD_SLURM_DIR:-/tmp/crd-slurm-$(id -u)}}"
cpus="${CRD_SLURM_CPUS:-2}"
port="${CRD_SLURM_PORT:-6817}"
timeout_s="${CRD_SLURM_START_TIMEOUT:-30}"
conf="$dir/slurm.conf"
nodes="${CRD_SLURM_NODES:-}"
node_exec="${CRD_SLURM_NODE_EXEC:-}"
munge_sock="$dir/munge/munge.socket.2"

die() { echo "slurm_local.sh: $*" >&2; exit 1; }

require_tools() {
  local t
  for t in slurmctld slurmd munged sinfo sbatch; do
    command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] ||
      die "$t not found (install slurm-wlm and munge: scripts/install_deps.sh --slurm)"
  done
  [ -r /etc/munge/munge.key ] || die "/etc/munge/munge.key missing (the munge package creates it)"
  [ "$(id -u)" -eq 0 ] || die "must run as root (slurmd without cgroups)"
}

node_lines() {  # the NodeName lines: one per CRD_SLURM_NODES entry, each on its own slurmd port
  if [ -z "$nodes" ]; then
    echo "NodeName=localhost CPUs=$cpus RealMemory=2000 State=UNKNOWN"
    return
  fi
  local i=1 entry
  for entry in $nodes; do
    echo "NodeName=${entry%%=*} NodeAddr=${entry#*=} NodeHostname=${entry%%=*} Port=$((port + i)) CPUs=$cpus RealMemory=2000 State=UNKNOWN"
    i=$((i + 1))
  done
}

write_config() {
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  local spool="$dir/spool" slurmd_pid="$dir/slurmd.pid" slurmd_log="$dir/log/slurmd.log"
  if [ -n "$nodes" ]; then  # Slurm expands %n to the node name: each slurmd its own files
    spool="$dir/spool/%n" slurmd_pid="$dir/slurmd-%n.pid" slurmd_log="$dir/log/slurmd-%n.log"
  fi
  cat >"$conf" <<EOF
# Written by scripts/slurm_local.sh: ${nodes:-one node}, no cgroups, no accounting.
ClusterName=crdlocal
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$munge_sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$slurmd_pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$slurmd_log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmix
ReturnToService=2
$(node_lines)
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
slurmd_pidfiles_alive() {  # the recorded slurmd PID files whose process runs
  local f
  for f in "$dir"/pids/slurmd-*; do alive "$f" && echo "$f"; done
  return 0
}

start_munged() {
  # A private munged on its own socket: does not collide with (or depend on) a system one.
  mkdir -p "$dir/munge"
  chmod 0755 "$dir"
  runuser -u munge -- test -x "$dir" ||
    die "user munge cannot reach $dir (a parent directory is not world-searchable)"
  chown munge:munge "$dir/munge"
  chmod 0700 "$dir/munge"
  runuser -u munge -- /usr/sbin/munged --socket="$munge_sock" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" --force
  local _
  for _ in $(seq 1 50); do
    [ -S "$munge_sock" ] && alive "$dir/munge/munged.pid" && return 0
    sleep 0.1
  done
  die "munged did not start (see $dir/munge/munged.log)"
}

do_start() {
  require_tools
  if alive "$dir/pids/slurmctld" || [ -n "$(slurmd_pidfiles_alive)" ]; then
    die "already running under $dir (stop it first)"
  fi
  rm -rf "$dir/state" "$dir/spool" "$dir/pids"
  write_config
  mkdir -p "$dir/pids"
  start_munged
  # -D keeps each daemon in the foreground so $! is its PID; setsid detaches it from this shell.
  SLURM_CONF="$conf" setsid /usr/sbin/slurmctld -D -i -f "$conf" >>"$dir/log/slurmctld.out" 2>&1 &
  echo $! >"$dir/pids/slurmctld"
  local name entry
  for entry in ${nodes:-localhost}; do
    name="${entry%%=*}"
    mkdir -p "$dir/spool/$name"
    if [ -n "$node_exec" ]; then  # exec: the recorded PID is slurmd's own, whatever EXEC wraps it in
      SLURM_CONF="$conf" setsid $node_exec "$name" exec /usr/sbin/slurmd -D -N "$name" -f "$conf" \
        >>"$dir/log/slurmd-$name.out" 2>&1 &
    else
      SLURM_CONF="$conf" setsid /usr/sbin/slurmd -D -N "$name" -f "$conf" >>"$dir/log/slurmd-$name.out" 2>&1 &
    fi
    echo $! >"$dir/pids/slurmd-$name"
  done
  local deadline=$((SECONDS + timeout_s)) state="" want
  want="$(for _ in ${nodes:-localhost}; do echo idle; done)"
  while [ $SECONDS -lt $deadline ]; do
    state="$(SLURM_CONF="$conf" sinfo -h -N -o %t 2>/dev/null || true)"
    [ "$state" = "$want" ] && { echo "slurm_local.sh: up ($dir, SLURM_CONF=$conf)"; return 0; }
    alive "$dir/pids/slurmctld" || break
    [ "$(slurmd_pidfiles_alive | wc -w)" -eq "$(echo "$want" | wc -l)" ] || break
    sleep 0.5
  done
  echo "slurm_local.sh: node not idle (state '${state}'); logs:" >&2
  tail -n 20 "$dir/log/"* >&2 2>/dev/null || true
  do_stop
  exit 1
}

stop_pid() {  # stop_pid PIDFILE NAME: TERM, wait up to 10 s, then KILL
  local f="$1" pid _
  [ -s "$f" ] || return 0
  pid="$(cat "$f")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$f"
}

do_stop() {
  # slurmd first (it kills its job steps), then the controller, then munged.
  local f
  for f in "$dir"/pids/slurmd-*; do stop_pid "$f"; done
  stop_pid "$dir/pids/slurmctld"
  stop_pid "$dir/munge/munged.pid"
  echo "slurm_local.sh: stopped ($dir)"
}

do_status() {
  alive "$dir/pids/slurmctld" || { echo "slurm_local.sh: slurmctld not running ($dir)"; exit 1; }
  [ -n "$(slurmd_pidfiles_alive)" ] || { echo "slurm_local.sh: slurmd not running ($dir)"; exit 1; }
  SLURM_CONF="$conf" sinfo
}

case "$cmd" in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  env) echo "export SLURM_CONF=$conf" ;;
  *) echo "usage: $0 start|stop|status|env [DIR]" >&2; exit 2 ;;
esac
