#!/usr/bin/env bash
# Remove the Table Companion appliance installed by systemd/install.sh.
#
#   sudo systemd/uninstall.sh [--prefix DIR] [--purge]
#
# Keeps the game history (/var/lib/table-companion: games, decks and their keys) and the
# config (/etc/table-companion) unless --purge is given; --purge also removes the user.
set -euo pipefail

PREFIX=/opt/table-companion
ETC=/etc/table-companion
STATE=/var/lib/table-companion
USER_NAME=table-companion
UNIT=table-companion.service
PURGE=0

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="$2"; shift 2 ;;
    --purge) PURGE=1; shift ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "ERROR: run as root: sudo $0" >&2; exit 1; }

if [ -d /run/systemd/system ]; then
  systemctl disable --now "$UNIT" 2>/dev/null || true
else
  systemctl disable "$UNIT" 2>/dev/null || true
fi
rm -f "/etc/systemd/system/$UNIT"
for extra in table-companion-port80.service table-companion-kiosk.service; do
  if [ -d /run/systemd/system ]; then systemctl disable --now "$extra" 2>/dev/null || true; fi
  rm -f "/etc/systemd/system/$extra" "/etc/systemd/system/multi-user.target.wants/$extra"
done
rm -f /etc/NetworkManager/dnsmasq-shared.d/table-companion.conf \
  /etc/polkit-1/rules.d/50-table-companion.rules /etc/pam.d/table-kiosk
[ -d /run/systemd/system ] && systemctl daemon-reload
rm -rf "$PREFIX"
echo "Removed the service and $PREFIX."

if [ "$PURGE" = 1 ]; then
  rm -rf "$STATE" "$ETC"
  if id "$USER_NAME" >/dev/null 2>&1; then userdel "$USER_NAME"; fi
  if id table-kiosk >/dev/null 2>&1; then userdel --remove table-kiosk 2>/dev/null || true; fi
  echo "Purged the game history ($STATE), the config ($ETC) and the user $USER_NAME."
else
  echo "Kept the game history in $STATE and the config in $ETC (remove them with --purge)."
fi
