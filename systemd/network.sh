#!/usr/bin/env bash
# The network side of the Table Companion appliance: its own Wi-Fi when there is none
# (captive portal), http://table.local/, and optionally the TV on the Pi's HDMI output.
# Called by systemd/install.sh; writes files only (no packages, users or services
# started), so it can be run into any root directory:
#
#   systemd/network.sh [--root DIR] [--prefix DIR] [--port PORT] [--hostname NAME]
#                      [--keep-hostname] [--kiosk | --no-kiosk]
#
#   --hostname NAME   the machine's name, so phones open http://NAME.local/ (default: table)
#   --keep-hostname   leave the hostname as it is (the dashboard is http://<hostname>.local/)
#   --kiosk           the TV unit (Chromium kiosk under cage on the HDMI screen), enabled
#   --no-kiosk        the TV unit disabled (without either: left as it is)
set -euo pipefail

SRC="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
ROOT=""
PREFIX=/opt/table-companion
PORT=8080
HOSTNAME_NEW=table
KIOSK=

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --root) ROOT="${2%/}"; shift 2 ;;
    --prefix) PREFIX="$2"; shift 2 ;;
    --port) PORT="$2"; shift 2 ;;
    --hostname) HOSTNAME_NEW="$2"; shift 2 ;;
    --keep-hostname) HOSTNAME_NEW=""; shift ;;
    --kiosk) KIOSK=1; shift ;;
    --no-kiosk) KIOSK=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done
case "$PORT" in ''|*[!0-9]*) echo "ERROR: --port takes a number, not '$PORT'" >&2; exit 2 ;; esac
if [ -n "$HOSTNAME_NEW" ] && ! printf '%s' "$HOSTNAME_NEW" | grep -Eq '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'; then
  echo "ERROR: --hostname takes letters a-z, digits and '-' (like 'table'), not '$HOSTNAME_NEW'" >&2
  exit 2
fi

say() { printf '==> %s\n' "$*"; }
put() {  # put MODE SOURCE DEST: install a file into the root, its folder created
  install -D -m "$1" "$2" "$ROOT$3"
}
enable() {  # what `systemctl enable` does for WantedBy=multi-user.target, in any root
  mkdir -p "$ROOT/etc/systemd/system/multi-user.target.wants"
  ln -sfn "/etc/systemd/system/$1" "$ROOT/etc/systemd/system/multi-user.target.wants/$1"
}

say "Hotspot: every name leads to the table (NetworkManager's shared-mode dnsmasq)"
put 0644 "$SRC/systemd/network/dnsmasq-shared.conf" \
  /etc/NetworkManager/dnsmasq-shared.d/table-companion.conf

say "The service may switch the Wi-Fi (polkit rule for NetworkManager)"
put 0644 "$SRC/systemd/network/50-table-companion.rules" \
  /etc/polkit-1/rules.d/50-table-companion.rules

say "Port 80 leads to the dashboard on port $PORT (nftables)"
mkdir -p "$ROOT/etc/table-companion"
sed "s/@PORT@/$PORT/g" "$SRC/systemd/network/port80.nft" > "$ROOT/etc/table-companion/port80.nft"
chmod 0644 "$ROOT/etc/table-companion/port80.nft"
put 0644 "$SRC/systemd/table-companion-port80.service" \
  /etc/systemd/system/table-companion-port80.service
enable table-companion-port80.service

if [ -n "$HOSTNAME_NEW" ]; then
  say "Hostname $HOSTNAME_NEW: phones open http://$HOSTNAME_NEW.local/ (mDNS, avahi)"
  old="$(cat "$ROOT/etc/hostname" 2>/dev/null || true)"
  printf '%s\n' "$HOSTNAME_NEW" > "$ROOT/etc/hostname"
  touch "$ROOT/etc/hosts"
  if grep -q '^127\.0\.1\.1[[:space:]]' "$ROOT/etc/hosts"; then
    sed -i "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$HOSTNAME_NEW/" "$ROOT/etc/hosts"
  else
    printf '127.0.1.1\t%s\n' "$HOSTNAME_NEW" >> "$ROOT/etc/hosts"
  fi
  [ -n "$old" ] && [ "$old" != "$HOSTNAME_NEW" ] && say "(the hostname was $old)"
fi

UNIT_KIOSK=table-companion-kiosk.service
if [ "$KIOSK" = 1 ]; then
  say "TV: the table view full-screen on the HDMI screen ($UNIT_KIOSK: cage + Chromium)"
  sed -e "s#/opt/table-companion#$PREFIX#g" -e "s#localhost:8080#localhost:$PORT#g" \
    "$SRC/systemd/$UNIT_KIOSK" > "$ROOT/etc/systemd/system/$UNIT_KIOSK"
  chmod 0644 "$ROOT/etc/systemd/system/$UNIT_KIOSK"
  put 0644 "$SRC/systemd/network/pam-table-kiosk" /etc/pam.d/table-kiosk
  enable "$UNIT_KIOSK"
elif [ "$KIOSK" = 0 ]; then
  say "TV: $UNIT_KIOSK disabled"
  rm -f "$ROOT/etc/systemd/system/multi-user.target.wants/$UNIT_KIOSK"
fi
