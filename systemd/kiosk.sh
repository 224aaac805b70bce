#!/bin/sh
# Table Companion TV: wait for a screen on the HDMI output, then the table view full-screen
# (cage + Chromium). Started by table-companion-kiosk.service as the user table-kiosk.
#   kiosk.sh [URL]    (default http://localhost:8080/?tv=1)
set -eu
URL="${1:-http://localhost:8080/?tv=1}"
screen_connected() {
  for s in /sys/class/drm/card*-HDMI-A-*/status; do
    [ "$(cat "$s" 2>/dev/null)" = connected ] && return 0
  done
  return 1
}
# a TV plugged in later is picked up: look again every few seconds
until screen_connected; do sleep 5; done
BROWSER="$(command -v chromium-browser || command -v chromium || true)"
[ -n "$BROWSER" ] || { echo "kiosk: Chromium is not installed (apt install chromium)" >&2; exit 1; }
mkdir -p "$HOME/chromium"
# -d: no window decorations; -s: Ctrl+Alt+F2 still reaches a console
exec cage -d -s -- "$BROWSER" --kiosk --noerrdialogs --disable-infobars --no-first-run \
  --disable-session-crashed-bubble --disable-features=Translate --password-store=basic \
  --ozone-platform=wayland --autoplay-policy=no-user-gesture-required \
  --check-for-update-interval=31536000 --user-data-dir="$HOME/chromium" "$URL"
