"""The hostile-input suite: generated requests against every route of a real server process.

Hypothesis sends bodies (JSON of every shape and depth, NaN, huge numbers, raw bytes),
headers, cookies, tokens and actions, as a stranger, as seat 0 and as the host, to every
route the app has. Afterwards: no answer was a 5xx, the server's log has no traceback, the
table loop is alive, and the state on the screen equals a replay of the stored record.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import games
from companion.records import export_lines, replay_lines
from companion.store import SqliteStore
from tests.core import tally

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


class Server:
    def __init__(self, proc: subprocess.Popen[str], hello: dict[str, Any], state: Path) -> None:
        self.proc, self.hello, self.state = proc, hello, state
        self.port = int(hello["port"])
        self.statuses: list[tuple[int, str, str]] = []

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            if resp.getheader("Content-Type", "").startswith("text/event-stream"):
                resp.read1(256)  # a live stream: its first bytes are enough
            else:
                resp.read()
            self.statuses.append((resp.status, method, path))
            return resp.status
        except (ConnectionError, http.client.HTTPException, OSError):
            self.statuses.append((0, method, path))  # the server may close on bad input
            return 0
        finally:
            conn.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    state = tmp_path_factory.mktemp("fuzz-state")
    proc = subprocess.Popen([sys.executable, "-m", "tests.fuzz.server_proc", str(state)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None and proc.stdin is not None
    line = proc.stdout.readline()
    assert line, "the server process did not start"
    srv = Server(proc, json.loads(line), state)
    try:
        yield srv
    finally:
        if proc.poll() is None:
            proc.stdin.close()
            proc.wait(300)
        proc.stdout.close()


# --- what a hostile guest sends ----------------------------------------------------------

KEYS = st.sampled_from(["do", "n", "seat", "value", "action", "request_id", "game", "players",
                        "options", "seed", "by", "junk", "csrf_token", "__proto__", "é"])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=40),
    st.sampled_from(["add", "secret", "undo", "deadline", "time", "tally", "x" * 5000]),
)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(KEYS, st.text(max_size=8)), inner,
                                                 max_size=4)), max_leaves=12)
ACTION = st.fixed_dictionaries({"do": st.sampled_from(["add", "secret", "undo", "fly", ""])},
                               optional={"n": SCALARS, "seat": SCALARS, "value": SCALARS,
                                         "junk": JSON})
RAW = st.one_of(
    JSON.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"action": ACTION}, optional={"request_id": st.text(max_size=90)}
                          ).map(lambda v: json.dumps(v).encode()),
    st.integers(min_value=1, max_value=40000).map(lambda n: b"[" * n),
    st.sampled_from([b'{"action": {"do": "add", "n": NaN}}', b'{"seed": 1e999}',
                     b'{"game": "tally", "seed": 1e30}', b'{"action": {"do": "add", "n": 1e308}}',
                     b"\xff\xfe\x00", b"", b"null", b'{"action": 5}']),
    st.binary(max_size=200),
)
LATIN1 = st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=60)
WHO = st.sampled_from(["stranger", "seat0", "host", "host-bad-csrf"])


def _path(rule: str, draw: Any) -> str:
    parts = []
    for piece in rule.strip("/").split("/"):
        if piece.startswith("<int:"):
            parts.append(str(draw(st.integers(min_value=-3, max_value=40))))
        elif piece.startswith("<"):
            parts.append(draw(st.sampled_from(["x", "%C3%A9", "..%2F..", "a" * 300, "0"])))
        else:
            parts.append(piece)
    query = draw(st.sampled_from(["", "?token=%C3%A9", "?html=1", "?last=x-1", "?token=",
                                  "?last=%00", "?part=1", "?n=999999999999999999999"]))
    return "/" + "/".join(parts) + query


@st.composite
def requests(draw: Any, routes: list[tuple[str, str]]) -> tuple[str, str, bytes | None,
                                                                  dict[str, str]]:
    method, rule = draw(st.sampled_from(routes))
    path = _path(rule, draw)
    return method, path, draw(RAW) if method == "POST" else None, {}


def _headers(server: Server, who: str, extra: dict[str, str]) -> dict[str, str]:
    h = server.hello
    cookies = {"stranger": [], "seat0": [h["seat0"], h["csrf_cookie"]],
               "host": [h["host"], h["csrf_cookie"]],
               "host-bad-csrf": [h["host"], h["csrf_cookie"]]}[who]
    headers = {"Content-Type": "application/json"}
    if cookies:
        headers["Cookie"] = "; ".join(cookies)
    if who in ("seat0", "host"):
        headers["X-CSRF-Token"] = h["csrf"]
    headers.update(extra)
    return headers


def test_hostile_requests_never_break_the_table(server: Server) -> None:
    routes = [(m, r) for m, r in server.hello["routes"]]

    @settings(max_examples=400, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(req=requests(routes), who=WHO,
           extra=st.dictionaries(st.sampled_from(["X-CSRF-Token", "Cookie", "Last-Event-ID",
                                                 "X-Request-Id", "Origin", "Host"]), LATIN1,
                                 max_size=2))
    def hostile(req: tuple[str, str, bytes | None, dict[str, str]], who: str,
                extra: dict[str, str]) -> None:
        method, path, body, _ = req
        if who != "stranger":
            extra = {k: v for k, v in extra.items() if k not in ("Cookie", "X-CSRF-Token")}
        status = server.request(method, path, body, _headers(server, who, extra))
        assert status < 500, (status, method, path, body[:200] if body else body)

    hostile()
    seen = {status for status, _, _ in server.statuses}
    assert {200, 400, 403, 404} <= seen, seen  # the requests reached the app's checks
    _the_table_still_stands(server)


def _the_table_still_stands(server: Server) -> None:
    # the host can still play: the loop is alive
    body = json.dumps({"action": {"do": "add", "n": 1}}).encode()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=300)
    conn.request("POST", "/api/host/action", body=body, headers=_headers(server, "host", {}))
    resp = conn.getresponse()
    answer = json.loads(resp.read())
    conn.close()
    assert resp.status in (200, 409), answer
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=300)
    conn.request("GET", "/api/state")
    shown = json.loads(conn.getresponse().read())
    conn.close()
    # the state on the screen is a replay of the stored record
    games.register(tally.engine)
    store = SqliteStore(server.state / "events.sqlite3")
    try:
        replayed = replay_lines(export_lines(store, shown["game_id"]))
    finally:
        store.close()
    assert tally.engine.public_view(replayed.session.state) == shown["view"]
    # no 5xx, and no traceback in the server's log
    assert not [s for s in server.statuses if s[0] >= 500]
    server.proc.stdin.close()  # type: ignore[union-attr]
    out = server.proc.stdout.read()  # type: ignore[union-attr]
    server.proc.wait(300)
    assert json.loads(out.strip().splitlines()[-1])["loop_alive"]
    log = (server.state / "server.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-3000:]
