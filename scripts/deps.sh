#!/usr/bin/env bash
# Installs the Debian packages ibnetsim needs to build and test, when any is missing.
set -euo pipefail
pkgs=(build-essential cmake pkg-config libgsl-dev libcmocka-dev libconfig-dev libjansson-dev gnuplot-nox graphviz chromium opensm ibsim-utils python3 clang libclang-rt-dev tshark libopenmpi-dev openmpi-bin libmetis-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
