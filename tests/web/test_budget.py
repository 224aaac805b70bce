"""The connection budget (issue 28, B1): many addresses of slow connections cannot keep
new phones or the host out; the host token is read once; the log says a fault a few
times, not forty megabytes of times."""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.table import Table
from tests.wait import until
from tests.web.conftest import act, start_game
from tests.web.phones import SAFETY_S, Phones, address
from tests.web.test_server import _get
from web import server as srv
from web.auth import HOST_COOKIE, SEAT_COOKIE
from web.budget import Budget, budget_for
from web.limits import GuardedLogLimit, LogLimit

TOTAL, RESERVE, PER_ADDRESS = 80, 20, 8


@pytest.fixture
def served(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, int]]:
    monkeypatch.setattr(srv, "MAX_CONNECTIONS", TOTAL)
    monkeypatch.setattr(srv, "RESERVED", RESERVE)
    monkeypatch.setattr(srv, "MAX_CONNECTIONS_PER_ADDRESS", PER_ADDRESS)
    monkeypatch.setattr(srv, "HEADER_TIMEOUT_S", 3600.0)  # slow heads are held, not cut
    server = srv.make_server(app, "127.0.0.1", 0, 4)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield server, server.bind_addr[1]
    srv.stop(app, server)
    thread.join(300)


def _flood(port: int, addresses: int, each: int, prefix: str) -> list[socket.socket]:
    """``addresses`` x ``each`` connections that send half a request head, then wait."""
    socks = []
    for a in range(addresses):
        for _ in range(each):
            s = socket.create_connection(("127.0.0.1", port), timeout=SAFETY_S,
                                         source_address=(address(prefix, a), 0))
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
    return socks


def _settled(server: Any, tried: int) -> None:
    """Wait until the server has decided on every one of ``tried`` connections."""
    budget = server.budget
    until(lambda: budget.open + budget.evicted + budget.refused >= tried,
          f"the server to decide on {tried} connections", poll=0.01)


def test_many_addresses_of_slow_connections_leave_room_for_phones_and_the_host(
        app: Flask, table: Table, served: tuple[Any, int]) -> None:
    server, port = served
    st = app.extensions["table_companion"]
    start_game(table, ["Ann", "Ben"])
    game_id = table.hub.latest().game_id or ""
    host = f"{HOST_COOKIE}={st.guard.host_cookie()}"
    seat = f"{SEAT_COOKIE.format(0)}={st.guard.seat_cookie(game_id, 0)}"
    # the host and a joined seat are at the table before the flood
    host_stream = Phones(port, 1, "/api/host/stream", prefix="127.20", cookie=host)
    seat_stream = Phones(port, 1, "/api/seat/0/stream", prefix="127.21", cookie=seat)
    flood: list[socket.socket] = []
    try:
        host_stream.read_until(lambda p: p.events(0) == 1)
        seat_stream.read_until(lambda p: p.events(0) == 1)
        flood = _flood(port, 20, 2 * PER_ADDRESS, "127.30")  # 320 slow connections
        _settled(server, 2 + 20 * 2 * PER_ADDRESS)
        guests = server.budget.open - 2
        assert guests <= TOTAL - RESERVE  # the guests' share, whatever their addresses
        assert all(server.connections_of(address("127.30", a)) <= PER_ADDRESS
                   for a in range(20))
        # a new phone, the host and a new TV are served; the flood gave way to them
        assert _get(port, "/api/state", address="127.40.0.1", timeout=SAFETY_S) == 200
        assert _get(port, "/api/whoami", address="127.40.0.2", cookie=host,
                    timeout=SAFETY_S) == 200
        assert _get(port, "/", address="127.40.0.3", timeout=SAFETY_S) == 200
        assert server.budget.evicted > 0
        # the host's and the seat's streams were never given away: they get the next change
        act(table, {"do": "add", "n": 1})
        host_stream.read_until(lambda p: p.events(0) == 2)
        seat_stream.read_until(lambda p: p.events(0) == 2)
        assert not host_stream.closed[0] and not seat_stream.closed[0]
    finally:
        for s in flood:
            s.close()
        host_stream.close()
        seat_stream.close()


def test_the_host_is_not_capped_per_address(app: Flask, table: Table,
                                            served: tuple[Any, int]) -> None:
    server, port = served
    st = app.extensions["table_companion"]
    host = f"{HOST_COOKIE}={st.guard.host_cookie()}"
    streams = []
    try:
        for _ in range(3 * PER_ADDRESS):  # more than any guest may hold, one address
            one = Phones(port, 1, "/api/host/stream", prefix="127.22", cookie=host)
            streams.append(one)
            one.read_until(lambda p: p.has(0, b"HTTP/1.1 200"))
        guests = []
        for _ in range(PER_ADDRESS + 4):  # a guest on one address: capped
            guests.append(Phones(port, 1, "/api/stream", prefix="127.23"))
        streams += guests
        for one in guests:
            one.read_until(lambda p: p.closed[0] or p.has(0, b"HTTP/1.1 200"))
        assert sum(one.closed[0] for one in guests) == 4
        assert all(not one.closed[0] for one in streams[:3 * PER_ADDRESS])
    finally:
        for one in streams:
            one.close()


def test_no_request_reads_the_host_token_file(app: Flask, table: Table, state_dir: Path,
                                              served: tuple[Any, int]) -> None:
    """With every file descriptor taken, a per-request read made the host's actions fail."""
    _, port = served
    st = app.extensions["table_companion"]
    host = f"{HOST_COOKIE}={st.guard.host_cookie()}"
    (state_dir / "host_token").unlink()  # any read would now make a new token
    assert _get(port, "/api/whoami", cookie=host, timeout=SAFETY_S) == 200
    assert not (state_dir / "host_token").exists()


# --- the parts, on their own -------------------------------------------------------------


class _Stream:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_the_budget_gives_the_oldest_idle_guest_connection_away() -> None:
    budget = Budget(total=6, reserve=2, per_address=3)
    guests = [_Stream() for _ in range(4)]
    for i, g in enumerate(guests):
        assert budget.admit(g, f"10.0.0.{i % 2}")
    budget.busy(guests[0], +1)  # being answered: not given away
    newcomer = _Stream()
    assert budget.admit(newcomer, "10.0.0.9")  # the guests' share is full: the oldest idle
    assert guests[1].closed and not guests[0].closed  # one goes
    budget.prove(newcomer)  # it was the host: it leaves the guests' share
    assert budget.of_address("10.0.0.9") == 0
    hosts = [newcomer]
    for _ in range(2):
        hosts.append(_Stream())
        assert budget.admit(hosts[-1], "10.0.0.9")
        budget.prove(hosts[-1])
    assert budget.open == 6
    for _ in range(3):  # at the total, guests keep giving way ...
        assert budget.admit(_Stream(), "10.0.0.8")
    assert budget.open == 6
    assert not any(h.closed for h in hosts)  # ... the host never does
    a = Budget(total=4, reserve=1, per_address=2)
    assert a.admit(_Stream(), "x") and a.admit(_Stream(), "x")
    assert not a.admit(_Stream(), "x") and a.refused == 1  # per address
    assert budget_for(1024) == (896, 256)  # the open-file limit decides the total
    assert budget_for(200) == (72, 36)


def test_the_same_log_line_is_said_a_few_times_a_minute() -> None:
    now = [0.0]
    limit = GuardedLogLimit(burst=3, window=60.0, clock=lambda: now[0])
    records = [logging.LogRecord("tornado.general", logging.ERROR, __file__, 1,
                                 "error on read: %s", ("x",), None) for _ in range(100)]
    assert sum(limit.filter(r) for r in records) == 3
    table_line = logging.LogRecord("companion.table", logging.ERROR, __file__, 1, "x", (), None)
    assert all(limit.filter(table_line) for _ in range(10))  # not a guest's doing
    now[0] = 61.0
    later = logging.LogRecord("tornado.general", logging.ERROR, __file__, 1,
                              "error on read: %s", ("x",), None)
    assert limit.filter(later) and "97 more like this" in later.getMessage()
    assert isinstance(limit, LogLimit)


def test_the_unit_gives_the_budget_its_open_files() -> None:
    unit = (Path(__file__).resolve().parents[2] / "systemd" / "companion.service").read_text()
    limits = [line.split("=", 1)[1] for line in unit.splitlines()
              if line.startswith("LimitNOFILE=")]
    assert len(limits) == 1
    nofile = int(limits[0])
    total, reserve = budget_for(nofile)
    assert total == srv.MAX_CONNECTIONS and total + 128 <= nofile and reserve == srv.RESERVED
