#!/usr/bin/env bash
# Install Table Companion as an appliance on Raspberry Pi OS Bookworm (Debian 12):
# Debian packages, a dedicated user, the code and a venv in /opt/table-companion,
# the config in /etc/table-companion, the service enabled and started.
#
#   sudo systemd/install.sh [--prefix DIR] [--no-start] [--no-apt] [--kiosk | --no-kiosk]
#                           [--hostname NAME | --keep-hostname]
#
#   --kiosk      the TV: the table view full-screen on the Pi's HDMI screen (cage + Chromium)
#   --hostname   phones open http://NAME.local/ (default: table); --keep-hostname keeps it
#
# The Wi-Fi (systemd/network.sh): the table's own hotspot when no known Wi-Fi is in reach,
# every name leading to the table there (captive portal), port 80 to the dashboard.
# Run it again to update: the config and the game history are never overwritten.
# Undo with systemd/uninstall.sh (keeps the game history unless --purge).
set -euo pipefail

SRC="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
PREFIX=/opt/table-companion
ETC=/etc/table-companion
STATE=/var/lib/table-companion
USER_NAME=table-companion
UNIT=table-companion.service
START=1
APT=1
NET_ARGS=()
KIOSK=
NAME=table

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="$2"; shift 2 ;;
    --no-start) START=0; shift ;;
    --no-apt) APT=0; shift ;;
    --kiosk) KIOSK=1; NET_ARGS+=(--kiosk); shift ;;
    --no-kiosk) KIOSK=0; NET_ARGS+=(--no-kiosk); shift ;;
    --hostname) NAME="$2"; NET_ARGS+=(--hostname "$2"); shift 2 ;;
    --keep-hostname) NAME=""; NET_ARGS+=(--keep-hostname); shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done

say() { printf '==> %s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root: sudo $0 $*"
[ -f "$SRC/pyproject.toml" ] && [ -d "$SRC/companion" ] \
  || die "$SRC is not a Table Companion checkout (no pyproject.toml / companion/)"

IS_PI=0
if grep -qs "Raspberry Pi" /proc/device-tree/model 2>/dev/null; then IS_PI=1; fi
. /etc/os-release 2>/dev/null || true
if [ "${VERSION_CODENAME:-}" != bookworm ]; then
  warn "made for Raspberry Pi OS Bookworm / Debian 12; this is ${PRETTY_NAME:-unknown}"
fi

# --- 1. Debian packages -----------------------------------------------------------
# libzbar0: pyzbar's library; python3-picamera2 and python3-lgpio come from the
# Raspberry Pi archive (Raspberry Pi OS has it): the PyPI lgpio is a different library.
# nftables: port 80 to the dashboard; NetworkManager (Raspberry Pi OS has it) runs the Wi-Fi
base_pkgs=(python3 python3-venv python3-pip libzbar0 avahi-daemon libnss-mdns nftables)
pi_pkgs=(python3-picamera2 python3-lgpio)
# the TV: cage (a Wayland kiosk compositor) and Chromium (chromium-browser on Raspberry Pi OS)
kiosk_pkgs=(cage)
if [ "$APT" = 1 ]; then
  say "Installing Debian packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${base_pkgs[@]}" >/dev/null
  for p in "${pi_pkgs[@]}"; do
    if apt-cache show "$p" >/dev/null 2>&1; then
      apt-get install -y -qq --no-install-recommends "$p" >/dev/null
    elif [ "$IS_PI" = 1 ]; then
      die "$p is not in the apt sources: add the Raspberry Pi archive (archive.raspberrypi.com) or use Raspberry Pi OS"
    else
      warn "$p is not available here (not Raspberry Pi OS): no Pi camera / GPIO backend"
    fi
  done
  if [ "$KIOSK" = 1 ]; then
    browser=chromium
    apt-cache show chromium-browser >/dev/null 2>&1 && browser=chromium-browser
    apt-get install -y -qq --no-install-recommends "${kiosk_pkgs[@]}" "$browser" >/dev/null
  fi
fi
command -v nmcli >/dev/null \
  || warn "NetworkManager (nmcli) is missing: no hotspot and no Wi-Fi switch (Raspberry Pi OS Bookworm has it)"
command -v python3 >/dev/null || die "python3 is missing: apt-get install python3 python3-venv"

# --- 2. the service user ------------------------------------------------------------
say "Service user $USER_NAME (groups video, gpio)"
for g in video gpio; do
  getent group "$g" >/dev/null || groupadd --system "$g"
done
if ! id "$USER_NAME" >/dev/null 2>&1; then
  useradd --system --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin \
    --user-group "$USER_NAME"
fi
usermod -a -G video,gpio "$USER_NAME"
if [ "$KIOSK" = 1 ] && ! id table-kiosk >/dev/null 2>&1; then
  say "TV user table-kiosk (groups video, render, input)"
  for g in render input; do getent group "$g" >/dev/null || groupadd --system "$g"; done
  useradd --system --create-home --home-dir /var/lib/table-kiosk --shell /usr/sbin/nologin \
    --user-group --groups video,render,input table-kiosk
fi

# --- 3. code and venv -----------------------------------------------------------------
say "Code in $PREFIX/src, venv in $PREFIX/venv"
mkdir -p "$PREFIX"
rm -rf "$PREFIX/src.new"
mkdir -p "$PREFIX/src.new"
tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude='__pycache__' \
  --exclude='*.egg-info' --exclude=./build -cf - . | tar -C "$PREFIX/src.new" -xf -
rm -rf "$PREFIX/src.old"
[ -d "$PREFIX/src" ] && mv "$PREFIX/src" "$PREFIX/src.old"
mv "$PREFIX/src.new" "$PREFIX/src"
rm -rf "$PREFIX/src.old"
if [ ! -x "$PREFIX/venv/bin/python" ]; then
  # --system-site-packages: picamera2 and lgpio are Debian packages, not pip ones
  python3 -m venv --system-site-packages "$PREFIX/venv"
fi
"$PREFIX/venv/bin/python" -m pip install -q --upgrade pip
"$PREFIX/venv/bin/python" -m pip install -q "$PREFIX/src"
"$PREFIX/venv/bin/companion" --version

# --- 4. configuration -------------------------------------------------------------------
mkdir -p "$ETC"
if [ -f "$ETC/config.toml" ]; then
  say "Keeping $ETC/config.toml"
else
  say "Writing $ETC/config.toml (edit pins, players, camera there)"
  install -m 0644 "$SRC/systemd/config.example.toml" "$ETC/config.toml"
fi
install -d -m 0700 -o "$USER_NAME" -g "$USER_NAME" "$STATE"

# --- 5. the service ---------------------------------------------------------------------
say "Service $UNIT"
sed "s#/opt/table-companion#$PREFIX#g" "$SRC/systemd/companion.service" \
  > "/etc/systemd/system/$UNIT"
chmod 0644 "/etc/systemd/system/$UNIT"
systemctl enable "$UNIT" >/dev/null 2>&1 || systemctl --root=/ enable "$UNIT"
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  if [ "$START" = 1 ]; then
    systemctl restart "$UNIT"
    say "Started. Status: systemctl status $UNIT; log: journalctl -u $UNIT -f"
  fi
else
  warn "systemd is not running here (a chroot?): $UNIT is enabled and starts at next boot"
fi

# --- 6. the network: hotspot, captive portal, port 80, table.local, the TV --------------
"$SRC/systemd/network.sh" --prefix "$PREFIX" "${NET_ARGS[@]}"
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  [ -n "$NAME" ] && hostnamectl set-hostname "$NAME" 2>/dev/null || true
  systemctl restart table-companion-port80.service \
    || warn "port 80 could not be redirected (nft): use http://$(hostname).local:8080/"
  if [ "$KIOSK" = 1 ] && [ "$START" = 1 ]; then systemctl restart table-companion-kiosk.service; fi
  if [ "$KIOSK" = 0 ]; then systemctl disable --now table-companion-kiosk.service 2>/dev/null || true; fi
  systemctl restart avahi-daemon 2>/dev/null || true
fi

# --- 7. self-test -----------------------------------------------------------------------
say "Self-test (companion doctor)"
STATE_DIRECTORY="$STATE" TABLE_COMPANION_CONFIG="$ETC/config.toml" \
  runuser -u "$USER_NAME" -- "$PREFIX/venv/bin/companion" doctor \
  || warn "companion doctor found problems (above): fix them, then run it again"
say "Done. The dashboard: http://${NAME:-$(hostname)}.local/ (or port 8080)"
