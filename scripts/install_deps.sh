#!/usr/bin/env bash
# Installs crd's build, test and analysis dependencies from Debian 12's packages. Idempotent:
# does nothing (and needs no network) when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libopenmpi-dev openmpi-bin libhdf5-openmpi-dev hdf5-tools
  libgumbo-dev libboost-program-options-dev libssl-dev zlib1g-dev libisal-dev
  libgtest-dev libbenchmark-dev
  libtlsh-dev libfuzzy-dev
  libpsl-dev publicsuffix
  libicu-dev
  python3 python3-h5py python3-numpy python3-pandas python3-matplotlib
)
# Extra groups, enabled by flags: --slurm (local Slurm and Lmod for the sbatch and install tests), --notebook, --fuzz,
# --browser (headless Chromium for the crd report page tests).
for arg in "$@"; do
  case "$arg" in
    --slurm) packages+=(slurm-wlm munge lmod) ;;  # lmod: the installed modulefile (tests/install)
    --notebook) packages+=(jupyter-nbconvert python3-ipykernel python3-nbformat) ;;
    --fuzz) packages+=(clang libclang-rt-14-dev) ;;
    --browser) packages+=(chromium chromium-driver python3-selenium) ;;
    *) echo "install_deps.sh: unknown flag $arg" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install_deps.sh: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
