#!/usr/bin/env bash
# Installs the Debian packages icnsim needs that are missing on this machine (apt-get only).
# Usage: scripts/install-deps.sh [--only-build | --only-python] [--with-fuzz] [--with-format]
#   (no option)    everything the build, the tests and the main job need
#   --only-build   what compiling needs (scripts/build.sh installs the rest while it compiles)
#   --only-python  what only the tests, the reports and the Python package's users need
set -euo pipefail
# Compiling: the libraries and, for the Python module, pybind11 and python3-dev. OpenMPI:
# `mpirun -n R icnsim sweep` spreads a sweep over ranks (CMake finds it; see docs/usage.md).
# libbz2: Netrace traces are bzip2-compressed; OTF2: MPI traces (pkg-config finds it).
build=(g++ cmake ninja-build pkg-config libtomlplusplus-dev libcli11-dev libfmt-dev nlohmann-json3-dev libgtest-dev
       python3 libopenmpi-dev openmpi-bin libbz2-dev libopen-trace-format2-dev pybind11-dev python3-dev)
# Running: numpy, pandas and matplotlib for the reports' figures and the Python package's
# tutorial (docs/python.md), pytest for its tests. Most of the packages apt installs are
# these and what they depend on (matplotlib brings scipy and sympy).
python=(python3-numpy python3-pandas python3-pytest python3-matplotlib)
packages=("${build[@]}" "${python[@]}")
for option in "$@"; do
  case "$option" in
    --only-build) packages=("${build[@]}") ;;
    --only-python) packages=("${python[@]}") ;;
    --with-plots) ;;  # figures: always installed (kept so that older commands still work)
    # clang with libFuzzer: the runtime is not pulled in without recommends.
    --with-fuzz) packages+=(clang libclang-rt-14-dev) ;;
    --with-format) packages+=(clang-format git) ;;  # scripts/check-format.sh
    *)
      echo "install-deps: unknown option $option (use --only-build, --only-python, --with-fuzz, --with-format)" >&2
      exit 1
      ;;
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
# The package lists are fetched once an hour at most (the build's two installs share them).
if ! find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -60 2>/dev/null | grep -q .; then
  $sudo apt-get update -qq
fi
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
