#!/usr/bin/env bash
# Installs the Debian packages icnsim needs that are missing on this machine (apt-get only).
# Usage: scripts/install-deps.sh [--with-plots] [--with-fuzz] [--with-format]
set -euo pipefail
# python3 runs the reproduction reports (icnsim reproduce); matplotlib and numpy draw figures.
# OpenMPI: `mpirun -n R icnsim sweep` spreads a sweep over ranks (CMake finds it; see docs/usage.md).
# libbz2: Netrace traces are bzip2-compressed; OTF2: MPI traces (pkg-config finds it).
# pybind11, python3-dev, numpy, pandas, pytest and matplotlib: the Python package and its
# tutorial (docs/python.md).
packages=(g++ cmake ninja-build pkg-config libtomlplusplus-dev libcli11-dev libfmt-dev nlohmann-json3-dev libgtest-dev
          python3 libopenmpi-dev openmpi-bin libbz2-dev libopen-trace-format2-dev
          pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest python3-matplotlib)
for option in "$@"; do
  case "$option" in
    --with-plots) ;;  # figures: now always installed (kept so that older commands still work)
    # clang with libFuzzer: the runtime is not pulled in without recommends.
    --with-fuzz) packages+=(clang libclang-rt-14-dev) ;;
    --with-format) packages+=(clang-format git) ;;  # scripts/check-format.sh
    *) echo "install-deps: unknown option $option (use --with-plots, --with-fuzz, --with-format)" >&2; exit 1 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
