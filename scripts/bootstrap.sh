#!/usr/bin/env bash
# Install what Table Companion needs, idempotently: Debian packages (when root and
# missing), a virtual environment in .venv, the package itself (with test extras for
# `test`). Usage: scripts/bootstrap.sh run|test
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
mode="${1:-run}"

# Debian packages: the zbar library pyzbar loads; for tests also pdftoppm (tag sheets),
# Chromium (browser tests), systemd-analyze (unit check), fonts for the PDFs, and
# libatomic1, which Playwright's bundled Node needs on arm64 (a minimal Debian 12 arm64
# root lacks it: every browser test failed there with "libatomic.so.1: cannot open"),
# and PostgreSQL for the league's tests (a throwaway cluster; its service is not used).
run_pkgs=(libzbar0)
test_pkgs=(poppler-utils chromium fonts-dejavu-core systemd libatomic1 postgresql)
# the hotspot test (tests/systemd/test_netns.py): a "phone" in its own network namespace
# asks dnsmasq (NetworkManager's shared-mode DNS) and reaches port 80 through nftables
test_pkgs+=(dnsmasq-base nftables iproute2)
pkgs=("${run_pkgs[@]}")
[ "$mode" = test ] && pkgs+=("${test_pkgs[@]}")

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Missing Debian packages: ${missing[*]}" >&2
    echo "Install them with: sudo apt-get install ${missing[*]}" >&2
  fi
fi

# On a Raspberry Pi, picamera2 and lgpio come from Debian: let the venv see them.
venv_flags=()
if grep -qs "Raspberry Pi" /proc/device-tree/model 2>/dev/null; then
  venv_flags+=(--system-site-packages)
fi
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv"
  "$PY" -m venv "${venv_flags[@]}" .venv
fi

extras=""
# tests: no byte-compiling of every installed file (half of the install's CPU: mypy's,
# playwright's, hypothesis' sources); a module is compiled when first imported, and only
# the ones the suite imports are. The table's own install (run) stays compiled.
compile=()
[ "$mode" = test ] && extras="[test]" && compile=(--no-compile)
stamp=".venv/.installed-$mode"
want="$(cat pyproject.toml | sha256sum | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "Installing Table Companion$extras into .venv"
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q "${compile[@]}" -e ".$extras"
  echo "$want" > "$stamp"
fi
