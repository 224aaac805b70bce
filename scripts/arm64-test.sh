#!/usr/bin/env bash
# ./run test on a Debian 12 arm64 root (the Raspberry Pi's architecture), emulated with
# qemu-user-static + binfmt, made with debootstrap. Run as root on a Debian/Ubuntu host:
#
#   sudo scripts/arm64-test.sh [PYTEST ARGS]
#   sudo ARM64_JOBS=2 scripts/arm64-test.sh    (pytest workers; default: one per core)
#
# It installs debootstrap and qemu-user-static, builds the root once (cached as
# $CACHE/bookworm-arm64-root.tar.gz, a few hundred MB; the first build takes 10-30 min
# under emulation), copies this working tree into it (without .venv and artifacts), runs
# `./run test` inside with /proc, /sys and /dev mounted, and writes the log to
# artifacts/arm64-test.log with the time it took. Emulation is 5-20x slower than native:
# see docs/dev/arm64.md and docs/dev/testing.md for measured times. The browser tests drive the host's
# Chromium over the DevTools protocol (Chromium itself cannot run under qemu-user; see
# docs/dev/arm64.md). Exit status: that of ./run test.
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
here="$PWD"
[ "$(id -u)" -eq 0 ] || { echo "arm64-test: run as root (debootstrap, chroot, mount)" >&2; exit 2; }

MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
CACHE="${TABLE_COMPANION_CACHE:-$HOME/.cache/table-companion}"
TARBALL="$CACHE/bookworm-arm64-root.tar.gz"
ROOT="${ARM64_ROOT:-/var/tmp/companion-arm64-root}"
LOG="$here/artifacts/arm64-test.log"
mkdir -p "$CACHE" "$here/artifacts"

need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
[ -e /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
command -v update-binfmts >/dev/null || need+=(binfmt-support)
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ "${#need[@]}" -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi
# the kernel must hand aarch64 binaries to qemu (binfmt_misc)
mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  update-binfmts --enable qemu-aarch64 2>/dev/null || update-binfmts --import qemu-aarch64 || true
fi
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || {
  echo "arm64-test: binfmt_misc has no qemu-aarch64 entry; cannot run arm64 binaries" >&2; exit 1; }

browser_pid=""
cleanup() {
  [ -n "$browser_pid" ] && kill "$browser_pid" 2>/dev/null || true
  for m in tmp dev/pts dev sys proc; do
    mountpoint -q "$ROOT/$m" && umount -l "$ROOT/$m" || true
  done
  # and any other mount inside the root, deepest first (`ip netns add` mounts run/netns)
  awk -v root="$ROOT/" 'index($2, root) == 1 {print $2}' /proc/mounts | sort -r |
    while read -r m; do umount -l "$m" || true; done
}
trap cleanup EXIT

if [ ! -f "$TARBALL" ]; then
  echo "== building a Debian 12 arm64 root (once; cached in $TARBALL)"
  rm -rf "$ROOT.build"
  debootstrap --arch=arm64 --variant=minbase \
    --include=python3,python3-venv,python3-pip,ca-certificates,systemd,iproute2 \
    bookworm "$ROOT.build" "$MIRROR"
  tar -C "$ROOT.build" -czf "$TARBALL.tmp" . && mv "$TARBALL.tmp" "$TARBALL"
  rm -rf "$ROOT.build"
fi

echo "== unpacking the root into $ROOT"
cleanup
rm -rf "$ROOT"
mkdir -p "$ROOT"
tar -C "$ROOT" -xzf "$TARBALL"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# the host's local certificate authorities (e.g. a proxy's) are trusted inside too
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$ROOT/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
  chroot "$ROOT" update-ca-certificates >/dev/null
fi
mkdir -p "$ROOT/work/main"
tar -C "$here" --exclude=./.venv --exclude=./artifacts --exclude=./.git \
  --exclude='*.egg-info' --exclude=__pycache__ -cf - . | tar -C "$ROOT/work/main" -xf -
[ -d "$here/../shared" ] && mkdir -p "$ROOT/work/shared" && cp -a "$here/../shared/." "$ROOT/work/shared/"
mount -t proc proc "$ROOT/proc"
mount --rbind /sys "$ROOT/sys"
mount --rbind /dev "$ROOT/dev"
# one /tmp for both sides: Playwright (inside) tells the host's Chromium to save a
# download under its /tmp and then copies it from there (a download test failed without)
mount --bind /tmp "$ROOT/tmp"

# Chromium cannot run under qemu-user (its renderer dies with SIGSEGV/SIGTRAP; crashpad
# needs ptrace): the browser tests use the host's Chromium over the DevTools protocol,
# as a table's phones are other devices. The pages are served by the arm64 code.
port=9333
profile=$(mktemp -d)
/usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --disable-quic \
  --remote-debugging-port=$port --user-data-dir="$profile" about:blank >/dev/null 2>&1 &
browser_pid=$!

# The suite runs as ./run test runs it everywhere: pytest-xdist with one worker per core
# (scripts/test.sh), ruff, mypy and lint-imports beside it. ARM64_JOBS sets the number of
# workers (default: the host's cores; emulated Python is single-threaded).
inner="COMPANION_TEST_WORKERS=${ARM64_JOBS:-$(nproc)} ./run test $*"
echo "== ./run test on arm64 (log: $LOG)"
began=$(date +%s)
status=0
chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
  SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
  REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt \
  COMPANION_TEST_CHROMIUM_CDP=http://127.0.0.1:$port bash -c "cd /work/main && uname -m && $inner" >"$LOG" 2>&1 || status=$?
took=$(( $(date +%s) - began ))
printf '== arm64 ./run test: exit %s after %dh%02dm%02ds\n' "$status" $((took / 3600)) \
  $((took % 3600 / 60)) $((took % 60)) | tee -a "$LOG"
grep -E "^(FAILED|ERROR)|[0-9]+ (passed|failed)|tests ran" "$LOG" | tail -40 || true
exit "$status"
