"""A tiny HTTP browser for tests against a real server: cookies, CSRF, SSE reading.

Every wait ends on a condition; ``SAFETY_S`` only ends a hung test (minutes, so that a
slow or busy machine never fails a test by its speed).
"""

from __future__ import annotations

import http.client
import json
import re
from http.cookiejar import CookieJar
from typing import Any
from urllib.error import HTTPError
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, Request, build_opener

from tests import wait

SAFETY_S = 300.0


class Browser:
    """One phone: its own cookie jar."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = build_opener(HTTPCookieProcessor(self.jar), HTTPRedirectHandler())

    def get(self, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(self.base + path, timeout=SAFETY_S) as resp:
                return resp.status, resp.read().decode()
        except HTTPError as err:
            with err:
                return err.code, err.read().decode()

    def csrf(self) -> str:
        _, html = self.get("/")
        found = re.search(r'name="csrf-token" content="([0-9a-f]+)"', html)
        assert found
        return found.group(1)

    def post(self, path: str, body: Any = None, form: dict[str, str] | None = None) -> tuple[int, str]:
        token = self.csrf()
        if form is not None:
            data = "&".join(f"{k}={v}" for k, v in form.items()).encode()
            ctype = "application/x-www-form-urlencoded"
        else:
            data, ctype = json.dumps(body or {}).encode(), "application/json"
        req = Request(self.base + path, data=data, method="POST",
                      headers={"Content-Type": ctype, "X-CSRF-Token": token})
        try:
            with self.opener.open(req, timeout=SAFETY_S) as resp:
                return resp.status, resp.read().decode()
        except HTTPError as err:
            with err:
                return err.code, err.read().decode()

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def stream(self, path: str, until: Any, timeout: float = SAFETY_S,
               last: str | None = None,
               until_raw: Any = None) -> tuple[int, list[dict[str, Any]], str]:
        """Read SSE events of ``path`` until ``until(events)`` (or ``until_raw(raw
        text)``): (status, events, raw text). ``timeout`` is a safety limit only."""
        host, port = self.base.split("//")[1].split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
        headers = {"Cookie": self.cookie_header(), "Accept": "text/event-stream"}
        if last:
            headers["Last-Event-ID"] = last
        raw, events = "", []
        try:
            conn.request("GET", path, headers=headers)
            resp = conn.getresponse()
            if resp.status != 200:
                return resp.status, [], resp.read().decode()
            kind, data = "", ""

            def read_line() -> bool:  # True once done: the wanted events, or the stream ends
                nonlocal raw, kind, data
                if until(events) or (until_raw is not None and until_raw(raw)):
                    return True
                try:  # blocks until a line comes: no sleep between reads
                    line = resp.readline().decode()
                except TimeoutError:
                    line = ""
                if not line:
                    return True
                raw += line
                if line.startswith("event: "):
                    kind = line[7:].strip()
                elif line.startswith("data: "):
                    data = line[6:].strip()
                elif line == "\n":
                    if kind == "snapshot":
                        events.append(json.loads(data))
                    kind, data = "", ""
                return False

            wait.until(read_line, f"the events wanted from {path}", safety=timeout, poll=0)
            resp.close()
            return 200, events, raw
        finally:
            conn.close()
