"""Join codes: the dashboard's address as phones use it, QR codes, and the TV's codes.

The TV view (``/?tv=1``) is what the players look at before the game: each scans their
own seat's code there. The codes are one-time join tokens, so they are shown only to the
host's browser (the TV or laptop the host opened from the host panel), never to a guest.
The host panel (``web.host``) draws its codes with the same ``qr_svg``.
"""

from __future__ import annotations

import functools
from typing import Any, cast
from urllib.parse import urlsplit

import segno
from flask import Blueprint, abort, current_app, render_template, request
from markupsafe import Markup

from companion.network import EXTENSION as NETWORK
from companion.network import NetworkControl
from companion.snapshot import Snapshot
from web.auth import public_host
from web.context import state
from web.guards import HOST_ONLY, is_host

bp = Blueprint("joins", __name__)

LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")


def network_control() -> NetworkControl | None:
    """The table's Wi-Fi (``companion serve`` puts it in ``app.extensions``); None when the
    Wi-Fi is managed outside the table."""
    return cast("NetworkControl | None", current_app.extensions.get(NETWORK))


def hotspot_address() -> str | None:
    """The table's address on its own Wi-Fi, in hotspot mode only (else None)."""
    net = network_control()
    return net.captive_address() if net is not None else None


def base_url() -> str:
    """The dashboard's address as phones should use it (never localhost). On the table's
    own Wi-Fi it is the address itself, never a ``.local`` name: many Android browsers do
    not resolve those (the TV's codes and the Wi-Fi card say it)."""
    parts = urlsplit(request.host_url)
    loopback = parts.hostname in LOOPBACK
    cfg = state().web_config
    port = parts.port or (cfg.port if loopback else None)
    hotspot = hotspot_address()
    if hotspot is not None:
        return f"http://{hotspot}{f':{port}' if port else ''}/"
    if loopback:
        return f"http://{public_host(cfg.host)}:{port}/"
    return request.host_url


@functools.lru_cache(maxsize=64)  # drawing a code takes tens of ms; the panel shows many
def qr_svg(url: str) -> Markup:
    """A QR code of ``url`` as inline SVG (dark on white, with its quiet zone)."""
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=4, dark="#000", light="#fff", omitsize=True,
                                  title=url))


def free_seats(snap: Snapshot) -> list[dict[str, Any]]:
    """``{seat, name, url}`` of every seat of the running game no phone has joined."""
    if snap.game_id is None or snap.outcome is not None:
        return []
    joins = state().guard.joins
    return [{"seat": seat, "name": name,
             "url": f"{base_url()}join/{joins.for_seat(snap.game_id, seat)}"}
            for seat, name in enumerate(snap.players) if not joins.joined(snap.game_id, seat)]


def tv_joins() -> str:
    """The TV's join panel: empty when every seat is held, and for a guest's browser."""
    if not is_host():
        return ""
    seats = free_seats(state().table.hub.latest())
    return render_template("_tv_joins.html", seats=seats, qr=qr_svg) if seats else ""


@bp.get("/tv/joins")
def joins_part() -> str:
    """The TV's join panel alone (``static/tv.js`` refreshes it while a seat is free)."""
    if not is_host():
        abort(403, description=HOST_ONLY)
    return tv_joins()
