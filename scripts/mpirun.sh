#!/usr/bin/env bash
# mpirun with the flags this kind of machine needs: as root Open MPI wants explicit consent, and
# with more ranks than cores it wants oversubscription allowed. Ranks are not bound to one core
# each, so a rank's reader thread (crd --reader-thread auto) can use a spare core. mpirun's own
# hwloc discovery of PCI and I/O devices costs ~25 ms per job and finds nothing a one-node job
# uses: it is off unless HWLOC_COMPONENTS is set, and so is the loading of hwloc's I/O and libxml2
# plugins (5 ms) unless HWLOC_PLUGINS_BLACKLIST is (crd's ranks do the same, comm/mpi_startup.cpp).
# Usage: scripts/mpirun.sh -np N cmd…
set -euo pipefail
[ -n "${HWLOC_COMPONENTS+set}" ] || export HWLOC_COMPONENTS=-pci,-linuxio
[ -n "${HWLOC_PLUGINS_BLACKLIST+set}" ] ||
  export HWLOC_PLUGINS_BLACKLIST=hwloc_pci,hwloc_opencl,hwloc_cuda,hwloc_nvml,hwloc_rsmi,hwloc_levelzero,hwloc_gl,hwloc_xml_libxml
flags=()
[ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)
exec mpirun "${flags[@]}" --oversubscribe --bind-to none "$@"
