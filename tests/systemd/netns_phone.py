"""The phone side of the hotspot test (``python -m tests.systemd.netns_phone URL...``).

Run inside the phone's network namespace, whose resolver is the table (what the hotspot's
DHCP gives a phone). For each URL: what its name resolves to, the first answer without
following redirects (status, Location) and the page reached by following them, as a
phone's captive-portal check does. Prints one JSON line.
"""

from __future__ import annotations

import json
import socket
import sys
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def fetch(url: str, follow: bool) -> tuple[int, str, str]:
    handlers: list[Any] = [urllib.request.ProxyHandler({})]  # straight to the table
    if not follow:
        handlers.append(NoRedirect())
    opener = urllib.request.build_opener(*handlers)
    try:
        with opener.open(url, timeout=300) as resp:
            return resp.status, resp.headers.get("Location", ""), resp.read().decode()
    except urllib.error.HTTPError as err:
        with err:
            return err.code, err.headers.get("Location", ""), err.read().decode()


def probe(url: str) -> dict[str, Any]:
    name = urlsplit(url).hostname or ""
    try:
        resolved = sorted({a[4][0] for a in socket.getaddrinfo(name, 80, socket.AF_INET)})
    except OSError as exc:
        return {"url": url, "error": f"{name} does not resolve: {exc}"}
    first, location, _ = fetch(url, follow=False)
    status, _, body = fetch(url, follow=True)
    return {"url": url, "resolved": resolved, "first": first, "location": location,
            "status": status, "body": body}


def main(urls: list[str]) -> int:
    print(json.dumps([probe(u) for u in urls]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
