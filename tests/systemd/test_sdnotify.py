"""sd_notify: the datagrams systemd would receive, and a watchdog that stops on a hang."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.inputs import Command
from companion.sdnotify import Watchdog, notify, watchdog_interval
from companion.store import MemoryStore
from companion.table import Table
from tests.wait import SAFETY, until


@pytest.fixture
def systemd_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2.0)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    out = []
    sock.settimeout(0.05)
    try:
        while True:
            out.append(sock.recv(4096).decode())
    except TimeoutError:
        return out


def test_notify_without_systemd_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify("READY=1") is False


def test_notify_sends_the_message(systemd_socket: socket.socket) -> None:
    assert notify("READY=1")
    assert notify("STATUS=serving on :8080")
    assert received(systemd_socket) == ["READY=1", "STATUS=serving on :8080"]


def test_notify_to_an_abstract_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"table-companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify("STOPPING=1")
        sock.settimeout(2.0)
        assert sock.recv(100) == b"STOPPING=1"


def test_notify_to_a_missing_socket_says_false(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert notify("READY=1") is False


def test_watchdog_interval_is_half_of_watchdog_usec(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 10.0
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert watchdog_interval() is None
    monkeypatch.delenv("WATCHDOG_USEC")
    assert watchdog_interval() is None


class StuckTable:
    def __init__(self) -> None:
        self.now = 50.0
        self.heartbeat = 50.0

    def clock(self) -> float:
        return self.now


def test_watchdog_pings_only_while_the_loop_turns(systemd_socket: socket.socket) -> None:
    table = StuckTable()
    dog = Watchdog(table, interval=1.0, stale_after=3.0)
    assert dog.beat()
    table.now += 2.9
    assert dog.beat()
    table.now += 0.2  # 3.1 s without a turn of the loop: hung
    assert not dog.beat()
    assert not dog.beat()
    msgs = received(systemd_socket)
    assert msgs.count("WATCHDOG=1") == 2
    assert [m for m in msgs if m.startswith("STATUS=")] == [
        "STATUS=table loop not responding; systemd will restart it"
    ]
    table.heartbeat = table.now  # the loop turns again
    assert dog.beat()


class HandClock:
    """The table's clock, moved by hand: "hung for 2 s" is exact on any machine."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_watchdog_thread_follows_a_real_table_loop(systemd_socket: socket.socket) -> None:
    stop = threading.Event()
    msgs: list[str] = []

    def drain() -> None:  # like systemd: read every datagram as it comes
        systemd_socket.settimeout(0.05)
        while not stop.is_set():
            try:
                msgs.append(systemd_socket.recv(100).decode())
            except TimeoutError:
                pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    clock = HandClock()
    table = Table(MemoryStore(), clock=clock)
    table.start()
    gate, entered = threading.Event(), threading.Event()
    try:
        with Watchdog(table, interval=0.01, stale_after=1.0) as dog:
            until(lambda: dog.pings >= 3, "pings while the table loop turns")
            # a hung loop: a listener that blocks the loop thread, then 2 s of its clock
            table.subscribe(lambda snap, sig: (entered.set(), gate.wait(SAFETY)))
            table.submit(Command("start", {"game": "nasty7", "players": 3}))
            assert entered.wait(SAFETY)
            clock.now += 2.0
            until(lambda: "STATUS=table loop not responding; systemd will restart it" in msgs,
                  "the watchdog to say the loop hangs")
            before = dog.pings
            assert not dog.beat() and dog.pings == before  # and it pings no more
            gate.set()
            until(lambda: dog.pings > before, "pings to resume when the loop turns again")
    finally:
        gate.set()
        table.stop()
        stop.set()
        reader.join()
