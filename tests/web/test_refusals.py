"""A refusal goes only to the seat that caused it (issue 28, B2).

One seated guest posting garbage once pushed a new 2.8 KB snapshot to every phone per
refused post (1 GB to 500 phones in 40 s). Now the other phones get nothing for it, a
stream never gets what it already shows, and a seat that posts too fast is answered 429
before the table sees the post.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.inputs import Command, Source
from companion.table import Table
from tests.web.conftest import act, as_host, csrf_of, join, post_json, start_game
from tests.web.phones import Phones
from web import stream
from web.auth import CSRF_COOKIE, SEAT_COOKIE
from web.limits import PostLimit
from web.server import make_server, stop

PHONES = 500


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def served(app: Flask, table: Table) -> Iterator[tuple[Any, int]]:
    server = make_server(app, "127.0.0.1", 0, 8)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield server, server.bind_addr[1]
    stop(app, server)
    thread.join(300)


def _post(port: int, path: str, body: Any, cookie: str, csrf: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300,
                                      source_address=("127.8.0.1", 0))
    try:
        conn.request("POST", path, body=json.dumps(body).encode(),
                     headers={"Cookie": cookie, "X-CSRF-Token": csrf,
                              "Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


def test_a_garbage_posting_seat_sends_nothing_to_the_other_phones(
        app: Flask, table: Table, served: tuple[Any, int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream, "KEEPALIVE_S", 10**9)  # only snapshots travel
    clock = FakeClock()
    st = app.extensions["table_companion"]
    st.post_limit = PostLimit(clock=clock)
    start_game(table, ["Ann", "Ben", "Cy"])
    _, port = served
    game_id = table.hub.latest().game_id or ""
    cookie = (f"{SEAT_COOKIE.format(0)}={st.guard.seat_cookie(game_id, 0)}; "
              f"{CSRF_COOKIE}=garbage")
    phones = Phones(port, PHONES)
    ann = Phones(port, 1, "/api/seat/0/stream?html=1", prefix="127.9", cookie=cookie)
    try:
        phones.read_until(lambda p: all(p.events(i) == 1 for i in range(PHONES)))
        ann.read_until(lambda p: p.events(0) == 1)
        before = [len(d) for d in phones.data]
        refused = 0
        for n in range(200):
            clock.now += 1.0  # just under the post limit: every post reaches the table
            refused += _post(port, "/api/seat/0/action", {"action": {"do": f"junk{n}"}},
                             cookie, st.guard.csrf_for("garbage")) == 409
        assert refused == 200
        ann.read_until(lambda p: p.has(0, b"Refused:"))  # the seat itself is told
        act(table, {"do": "add", "n": 1})  # one real change, after all the garbage
        last = f"id: {table.hub.latest().epoch}-{table.hub.latest().seq}\n".encode()
        phones.read_until(lambda p: all(p.has(i, last) for i in range(PHONES)))
        for i in range(PHONES):  # the one real change, and nothing for the garbage
            assert phones.events(i) == 2, i
        grown = {len(d) - b for d, b in zip(phones.data, before, strict=True)}
        assert len(grown) == 1 and grown.pop() < 4096  # one event's bytes, the same for all
    finally:
        phones.close()
        ann.close()


def test_a_seats_refusal_is_a_snapshot_for_that_seat_alone(app: Flask, table: Table,
                                                           state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben"])
    before = table.hub.latest()
    result = table.submit(Command("action", {"action": {"do": "nope"}},
                                  source=Source.of_seat(1))).result(300)
    assert not result.accepted
    snap = table.hub.latest()
    assert snap.seq == before.seq + 1
    assert snap.version_for(1) == snap.seq  # seat 1 sees its refusal ...
    assert snap.version_for(0) == before.seq and snap.version_for(None) == before.seq
    assert snap.public_json() == before.public_json()  # ... nobody else sees a change
    assert snap.seat_json(0) == before.seat_json(0)
    assert snap.seat_json(1)["refusal"]["reason"] == result.reason
    # a refusal of the host is everyone's
    table.submit(Command("action", {"action": {"do": "nope"}})).result(300)
    host_refused = table.hub.latest()
    assert host_refused.version_for(0) == host_refused.seq == host_refused.version_for(None)
    assert host_refused.public_json()["refusal"] is not None


def test_a_stream_never_sends_what_it_already_shows(app: Flask, table: Table) -> None:
    """Two snapshots that differ only in seq, game time and a refusal's time: one event."""
    start_game(table, ["Ann", "Ben"])
    st = app.extensions["table_companion"]
    with app.test_request_context("/api/stream"):
        encode = stream._encoder(st, "public:False", stream.render.public_payload, None)
    push = stream.Push(st, encode, None, "127.0.0.1")
    first = push.start(0.0)
    assert b"event: snapshot" in first
    for _ in range(3):  # the camera refusing the same unknown tag again and again
        table.submit(Command("action", {"action": {"do": "nope"}})).result(300)
    snap = table.hub.latest()
    assert push.poll(snap, 1.0) is not None  # the refusal is news once ...
    table.submit(Command("action", {"action": {"do": "nope"}})).result(300)
    assert push.poll(table.hub.latest(), 2.0) is None  # ... and not again
    assert push.seq == table.hub.latest().seq  # it is not looked at again either
    act(table, {"do": "add", "n": 2})
    assert b'"total":2' in (push.poll(table.hub.latest(), 3.0) or b"")


def test_a_seat_posting_too_fast_is_told_and_the_table_never_sees_it(
        app: Flask, table: Table, state_dir: Path) -> None:
    clock = FakeClock()
    st = app.extensions["table_companion"]
    st.post_limit = PostLimit(rate=1.0, burst=3, clock=clock)
    start_game(table, ["Ann", "Ben"])
    host = as_host(app, state_dir)
    ann = join(app, host, 0)
    seq = table.hub.latest().seq
    answers = [post_json(ann, "/api/seat/0/action", {"action": {"do": "junk"}})
               for _ in range(5)]
    assert [a.status_code for a in answers] == [409, 409, 409, 429, 429]
    assert "Too many actions from this phone" in answers[-1].get_json()["reason"]
    assert table.hub.latest().seq == seq + 3  # the table saw three posts, not five
    clock.now += 1.0  # a second later the phone may post again
    assert post_json(ann, "/api/seat/0/action", {"action": {"do": "add", "n": 1}}
                     ).status_code == 200
    # the host is never limited
    for _ in range(10):
        assert post_json(host, "/api/host/action", {"action": {"do": "add", "n": 1}}
                         ).status_code == 200
    # a plain form post (no JavaScript) is limited the same way
    for _ in range(3):
        ann.post("/seat/0/act", data={"do": "junk", "csrf_token": csrf_of(ann)})
    resp = ann.post("/seat/0/act", data={"do": "junk", "csrf_token": csrf_of(ann)})
    assert resp.status_code == 429 and "Too many actions" in resp.get_data(as_text=True)


def test_a_seat_is_told_of_each_of_its_own_refusals(app: Flask, table: Table) -> None:
    """The same reason twice is two taps refused: the seat's phone hears of both (its own
    stream only), while the public stream saw neither."""
    start_game(table, ["Ann", "Ben"])
    st = app.extensions["table_companion"]
    with app.test_request_context("/api/seat/0/stream"):
        mine = stream._encoder(st, "seat0:False", lambda s: stream.render.seat_payload(s, 0),
                               None, seat=0)
        public = stream._encoder(st, "public:False", stream.render.public_payload, None)
    seat_push = stream.Push(st, mine, None, "127.0.0.1", 0)
    public_push = stream.Push(st, public, None, "127.0.0.2")
    seat_push.start(0.0)
    public_push.start(0.0)
    for t in (1.0, 2.0):
        table.submit(Command("action", {"action": {"do": "junk"}},
                             source=Source.of_seat(0))).result(300)
        assert b"Refused" not in (public_push.poll(table.hub.latest(), t) or b"")
        sent = seat_push.poll(table.hub.latest(), t) or b""
        assert b'"refusal":{"reason"' in sent
