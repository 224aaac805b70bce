"""Signing in as the host from a link opened on another site or app (issue 28).

The host opens ``/host?token=...`` from wherever the link was: a QR code scanned by the
camera app, a chat message, another site. The table sets the host cookie on that
response and redirects to ``/host`` without the token. A link followed from another site
is a cross-site navigation, and Chromium keeps counting the redirect that follows it as
cross-site: a SameSite=Strict cookie would not be sent with it, and the host would see
"host only" although the sign-in worked. The host cookie is therefore SameSite=Lax
(sent on top-level navigations, never with another site's POSTs, images or scripts).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser import BROWSER, shot
from web.auth import HOST_COOKIE, host_token

pytestmark = BROWSER

OTHER_SITE = "http://chat.example/"


def _from_other_site(page: Any, url: str) -> None:
    """Follow a link to ``url`` from a page of another site (served by the test)."""
    page.route(OTHER_SITE, lambda route: route.fulfill(
        status=200, content_type="text/html",
        body=f'<!doctype html><title>Chat</title><a id="go" href="{url}">Open the table</a>'))
    page.goto(OTHER_SITE)
    page.click("#go")


def test_host_link_followed_from_another_site_signs_in(
        phone: Any, live_url: str, state_dir: Path) -> None:
    page = phone()
    _from_other_site(page, f"{live_url}/host?token={host_token(state_dir)}")
    expect(page).to_have_url(f"{live_url}/host")  # the token has left the address bar
    page.wait_for_load_state()
    assert page.get_by_text("Host only").count() == 0, "'Host only' after a valid sign-in"
    expect(page.get_by_role("heading", name="Host panel")).to_be_visible()
    cookie = next(c for c in page.context.cookies() if c["name"] == HOST_COOKIE)
    assert cookie["sameSite"] == "Lax" and cookie["httpOnly"]
    shot(page, "host-signin-from-other-site")
    page.reload()  # and the panel stays signed in
    expect(page).to_have_url(f"{live_url}/host")
    assert page.context.request.get(f"{live_url}/api/whoami").json()["host"] is True
