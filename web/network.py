"""The table's Wi-Fi on the dashboard: captive-portal answers, the host's Wi-Fi page, the
Wi-Fi QR code (host panel, TV, printable card for the box lid).

The control is a ``companion.network.NetworkControl`` that ``companion serve`` puts in
``app.extensions[companion.network.EXTENSION]`` (NetworkManager on the Pi, a fake in the
demo and in tests); without one the pages say the Wi-Fi is managed outside the table.

**Captive portal.** In hotspot mode every name resolves to the table (NetworkManager's
shared-mode dnsmasq, configured by systemd/install.sh), so a phone that joins asks the
table for ``connectivitycheck.gstatic.com/generate_204``, ``captive.apple.com/
hotspot-detect.html``, ``www.msftconnecttest.com/connecttest.txt``... Any request for a
name that is not the table's own is answered with a redirect to the table page, which the
phone opens by itself. Requests for the table's own names (an address, ``*.local``,
``localhost``) and every request outside hotspot mode behave as before; the check paths
then give the answers of an open Internet connection.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    jsonify,
    redirect,
    render_template,
    request,
)
from werkzeug.wrappers import Response as BaseResponse

from companion.network import (
    HOTSPOT_ADDRESS,
    LOCAL_NAME,
    Mode,
    NetworkControl,
    NetworkError,
    NetworkStatus,
)
from web.auth import host_token
from web.context import state
from web.guards import host_required
from web.joins import base_url, qr_svg
from web.joins import network_control as control

log = logging.getLogger(__name__)

bp = Blueprint("network", __name__)

APPLE_SUCCESS = "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"
#: the connectivity checks of Android, Apple, Windows and Firefox, and what an open
#: Internet connection answers to each (status, body)
CHECKS: dict[str, tuple[int, str]] = {
    "/generate_204": (204, ""),
    "/gen_204": (204, ""),
    "/hotspot-detect.html": (200, APPLE_SUCCESS),
    "/library/test/success.html": (200, APPLE_SUCCESS),
    "/connecttest.txt": (200, "Microsoft Connect Test"),
    "/ncsi.txt": (200, "Microsoft NCSI"),
    "/success.txt": (200, "success\n"),
    "/canonical.html": (200, '<meta http-equiv="refresh" '
                             'content="0;url=https://support.mozilla.org/kb/captive-portal"/>'),
}
NO_CONTROL = ("The Wi-Fi is managed outside Table Companion here (NetworkManager's nmcli "
              "was not found): join a network with the system's own tools.")


def _control_or_404() -> NetworkControl:
    """The control, for the pages that only exist with one (a 404 saying why otherwise)."""
    net = control()
    if net is None:
        abort(404, description=NO_CONTROL)
    return net


def _qr(net: NetworkControl) -> str:
    """The hotspot's Wi-Fi QR code (SVG): a phone that scans it joins."""
    return qr_svg(net.hotspot.qr_payload())


def is_ours(host: str) -> bool:
    """Whether ``host`` (a Host header, maybe with a port) names this table, not a site."""
    name = host.strip().lower()
    if name.startswith("["):
        return True  # an IPv6 literal: the phone chose our address
    name = name.rsplit(":", 1)[0] if name.count(":") == 1 else name
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return name in ("", "localhost") or "." not in name or name.rstrip(".").endswith(".local")


def _port_suffix() -> str:
    host = request.host
    if host.startswith("["):
        tail = host.rsplit("]", 1)[1]
        return tail if tail.startswith(":") else ""
    return ":" + host.rsplit(":", 1)[1] if host.count(":") == 1 else ""


@bp.before_app_request
def captive() -> BaseResponse | None:
    """In hotspot mode a request for another site's name goes to the table page."""
    net = control()
    if net is None or is_ours(request.host):
        return None
    address = net.captive_address()
    if address is None:
        return None
    # no caching: the same name must work again once the phone is back on the Internet
    resp = redirect(f"http://{address}{_port_suffix()}/", code=302)
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _check_view(path: str) -> Callable[[], Response]:
    """The view answering the connectivity check ``path`` as an open Internet would."""
    code, body = CHECKS[path]
    mimetype = "text/html" if body.startswith("<") else "text/plain"

    def view() -> Response:
        return Response(body, status=code, mimetype=mimetype)
    return view


for _path in CHECKS:
    bp.add_url_rule(_path, "check" + _path.replace("/", "_").replace(".", "_"),
                    _check_view(_path))


# --- the host's Wi-Fi panel, page and switch ----------------------------------------------


def _status(net: NetworkControl) -> NetworkStatus:
    try:
        return net.status()
    except Exception:  # the panel must show even when NetworkManager misbehaves
        log.exception("reading the Wi-Fi status failed")
        return NetworkStatus(Mode.OFFLINE, notes=("The Wi-Fi status could not be read.",))


def panel_context() -> dict[str, Any]:
    """What the Wi-Fi panel and page show (``_network.html``)."""
    net = control()
    if net is None:
        return {"available": False, "why": NO_CONTROL}
    st = _status(net)
    return {"available": True, "status": st, "hotspot": net.hotspot,
            "qr": _qr(net), "local": LOCAL_NAME,
            "hotspot_mode": st.mode is Mode.HOTSPOT}


@bp.app_context_processor
def _helpers() -> dict[str, Any]:
    return {"network_panel": panel_context, "network_tv": tv_context}


#: what a phone on the table's own Wi-Fi (no Internet) must do, on the TV's join screens
PHONES_ON_HOTSPOT = ("Android or iPhone: stay on this Wi-Fi, even with no internet. "
                     "Page not loading? Turn off mobile data.")


def tv_context() -> dict[str, Any] | None:
    """The Wi-Fi code on the TV, in hotspot mode only (there it is how phones get in):
    ``address``, the table's address the codes carry (``typed``: as a player types it);
    ``phones``, what a phone must do."""
    net = control()
    if net is None or net.captive_address() is None:
        return None
    address = base_url()  # typed as a browser takes it, short enough for the TV's column
    return {"hotspot": net.hotspot, "qr": _qr(net), "address": address,
            "typed": address.removeprefix("http://").rstrip("/"), "phones": PHONES_ON_HOTSPOT}


@bp.get("/host/network")
@host_required
def page() -> str:
    """The networks in reach and the switch between them and the table's own hotspot."""
    return _page()


def _page(error: str = "", chosen: str = "", field: str = "") -> str:
    ctx = panel_context()
    net = control()
    networks = net.networks() if net is not None else []
    return render_template("network.html", net=ctx, networks=networks, error=error,
                           chosen=chosen, field=field)


@bp.get("/host/network/card")
@host_required
def card() -> str:
    """A card for the box lid: the hotspot's QR code, name and password, big, to print."""
    net = _control_or_404()
    return render_template("network_card.html", hotspot=net.hotspot, qr=_qr(net),
                           local=LOCAL_NAME, address=HOTSPOT_ADDRESS)


def _next_url(host_name: str) -> str:
    return f"http://{host_name}{_port_suffix()}/host?token={host_token(state().state_dir)}"


@bp.post("/host/network/hotspot")
@host_required
def use_hotspot() -> Any:
    net = _control_or_404()
    try:
        net.use_hotspot()
    except NetworkError as exc:
        return _back(str(exc), field=exc.field)
    return render_template("network_switch.html", mode="hotspot", hotspot=net.hotspot,
                           qr=_qr(net), next_url=_next_url(HOTSPOT_ADDRESS),
                           local=LOCAL_NAME, outcome=net.outcome())


@bp.post("/host/network/home")
@host_required
def use_home() -> Any:
    net = _control_or_404()
    ssid = (request.form.get("other") or request.form.get("ssid") or "").strip()
    password = request.form.get("password") or None
    try:
        net.use_home(ssid, password)
    except NetworkError as exc:
        return _back(str(exc), ssid, exc.field)
    return render_template("network_switch.html", mode="home", ssid=ssid,
                           next_url=_next_url(LOCAL_NAME), local=LOCAL_NAME,
                           outcome=net.outcome())


@bp.get("/host/network/outcome")
@host_required
def outcome() -> Response:
    """How the last switch ended (``state``: switching, done, failed; ``message``): the
    switch page asks until it is no longer "switching"."""
    result = _control_or_404().outcome()
    resp = jsonify({"state": result.state.value, "message": result.message})
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _back(reason: str, chosen: str = "", field: str = "") -> tuple[str, int]:
    """The Wi-Fi page again with the reason (next to the ``field`` it is about) and the
    network chosen (not the password)."""
    return _page(reason, chosen, field), 400


__all__ = ["CHECKS", "PHONES_ON_HOTSPOT", "bp", "control", "is_ours", "panel_context",
           "tv_context"]
