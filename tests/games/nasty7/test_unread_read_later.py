"""A card that landed unread and that the camera reads after the host was asked about it
(issue 36, round 4: a hand lifted, the glare moved): one play, once, at its landing time.

The camera's real path, small: drawn 320x240 frames (``tests.vision.scenes``) through
``VisionPipeline._process`` one by one (the landing watch, the tracker), a decoder that
reads the tags the script says, and a real Nasty 7 table on an injected clock that reads
each frame's time. The card U lands at frame 10 with its tag unreadable; the camera says a
card landed unread; its tag reads from frame ``READ_FROM`` on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.config import TrackingConfig, ZonesConfig
from companion.inputs import HOST, Command
from companion.store import MemoryStore
from companion.table import Table
from tests.vision.scenes import FPS, PILE, READ, card, table, tag_at
from tests.vision.test_pipeline import Info
from vision.frames import Detection, Frame, Image
from vision.pipeline import VisionPipeline

#: where the unread card U lies, and the frame from which its tag reads
U_AT, READ_FROM = (100.0, 120.0), 75
#: the frame the next card N lands on (over U, its tag at U's place) in ``cover`` scenes
N_AT = (104.0, 126.0)


CARDS = {"far": Info("ok", "nasty7", "racketeer", 1), "u": Info("ok", "nasty7", "gun", 2),
         "n": Info("ok", "nasty7", "phone", 3)}


class Script:
    """The decoder: each frame, the tags the scene says are readable."""

    name = "script"

    def __init__(self, tags: Any) -> None:
        self.tags, self.frame = tags, 0

    def decode(self, image: Image) -> list[Detection]:
        return [Detection(text, tuple(quad), "script") for text, quad in self.tags(self.frame)]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def play(frames: int, draw: Any, tags: Any, host: dict[int, dict[str, Any]]) -> Table:
    """Frames ``0..frames-1`` at 30 fps from 100 s: each drawn, decoded, its events to the
    table, the table ticked; at frame ``f`` in ``host`` the host sends that action."""
    clock = Clock()
    store_table = Table(MemoryStore(), clock=clock)
    res = store_table.process(Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"]}))
    assert res.accepted, res.reason
    events: list[Any] = []
    decoder = Script(tags)
    pipeline = VisionPipeline(
        source=None,  # type: ignore[arg-type]  # frames are handed to _process
        decoder=decoder, tracker_config=TrackingConfig(),
        zones=ZonesConfig(polygons={"pile": PILE}), on_event=events.append,
        resolve=CARDS.get, clock=clock)
    for i in range(frames):
        clock.now = 100.0 + i / FPS
        image = table(i)
        draw(i, image)
        decoder.frame = i
        pipeline._process(Frame(image, clock.now, i))
        for event in events:
            store_table.process(event)
        events.clear()
        if i in host:
            store_table.process(Command("action", {"action": host[i]}, source=HOST))
        store_table.tick()
    return store_table


def lands_unread(i: int, image: np.ndarray) -> None:
    card(image, (212.0, 42.0), 0)  # the card read at the start (under READ's tag)
    if i >= 10:
        card(image, U_AT)


def u_reads(i: int) -> list[tuple[str, list[tuple[float, float]]]]:
    return [READ, ("u", tag_at(U_AT))] if i >= READ_FROM else [READ]


def events_of(table: Table, *kinds: str) -> list[tuple[str, dict[str, Any]]]:
    assert table.info is not None
    return [(e.type, e.payload) for e in table.store.events(table.info.game_id)
            if e.type in kinds]


BOOKED = ("CardPlayed", "MissedCardAdded")


def test_the_read_answers_the_waiting_question_booked_once_at_the_landing() -> None:
    table = play(100, lands_unread, u_reads, {})
    asked = events_of(table, "CardLandedUnread")
    assert len(asked) == 1  # the camera put it to the host before it read the tag
    landed = asked[0][1]["at"]
    assert landed == pytest.approx(10 / FPS, abs=2 / FPS)
    booked = events_of(table, *BOOKED)
    assert [p["card"] for _, p in booked] == ["racketeer", "gun"]  # once
    assert booked[1][1]["landed"] == pytest.approx(landed)  # at its landing, not the read
    assert events_of(table, "LandingNamed") and table.session is not None
    state = table.session.state
    assert state.unread == ()  # the host's card no longer asks
    res = table.process(Command("action", {"action": {"do": "name_landed", "card": "gun"}},
                                source=HOST))
    assert not res.accepted  # too late: the camera answered it
    assert [p["card"] for _, p in events_of(table, *BOOKED)] == ["racketeer", "gun"]


def test_the_host_named_it_first_and_the_read_books_nothing_more() -> None:
    table = play(100, lands_unread, u_reads, {60: {"do": "name_landed", "card": "gun"}})
    booked = events_of(table, *BOOKED)
    assert [p["card"] for _, p in booked] == ["racketeer", "gun"]


def test_the_host_said_nothing_landed_and_the_read_is_booked_at_its_landing() -> None:
    table = play(100, lands_unread, u_reads, {60: {"do": "name_landed"}})
    landed = events_of(table, "CardLandedUnread")[0][1]["at"]
    booked = events_of(table, *BOOKED)
    assert [p["card"] for _, p in booked] == ["racketeer", "gun"]
    when = booked[1][1].get("landed", booked[1][1].get("at"))
    assert when == pytest.approx(landed)
    assert "PileTaken" not in [k for k, _ in events_of(table, "PileTaken")]


def test_a_new_card_read_where_the_unread_one_lies_is_a_new_play() -> None:
    """The next card N lands over U (U's tag never read): N is a play, U's question stays."""

    def draw(i: int, image: np.ndarray) -> None:
        lands_unread(i, image)
        if i >= 60:
            card(image, N_AT, 30, (190, 40))  # another card's print

    def tags(i: int) -> list[tuple[str, list[tuple[float, float]]]]:
        return [READ, ("n", tag_at(N_AT))] if i >= 62 else [READ]

    table = play(100, draw, tags, {})
    assert [p["card"] for _, p in events_of(table, *BOOKED)] == ["racketeer", "phone"]
    assert table.session is not None and len(table.session.state.unread) == 1
