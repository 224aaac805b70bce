"""Features as reactions on the table side (companion/reactions.py, Table.on_feature_event).

A card's stats are filled from the deck by the table itself, in the same loop turn as the
draw, whoever drew the card (the host, a phone, the camera), with no web app running; a
game's start sends the deck's known cards. A card the host counts beside the pile reaches
the camera, whoever sent the count (a host phone, the table's own source, a seat button,
the demo): the camera subscribes to the feature's event, never to an action's name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.commands.serve import grow_zones
from companion.decks import Deck, card_serial, stored_stats
from companion.decks.resolve import encode_payload
from companion.demo import RecordPlayer
from companion.games.base import ButtonInput, TableInput
from companion.games.engine import AnyEngine
from companion.inputs import HOST, TABLE, ButtonPressed, Command, Result, Source, TagSeen
from companion.reactions import MAX_FOLLOW_UPS, Committed, DeckStats
from companion.store import MemoryStore
from companion.table import Table

SLIM = {"name": "Slim", "power": 1, "resistance": 1}
MOM = {"name": "Mom", "power": 6, "resistance": 4}


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class FakeCamera:
    """The pipeline as the zone growth sees it: how often a card beside was counted."""

    def __init__(self) -> None:
        self.counted = 0

    def count_beside(self) -> str | None:
        self.counted += 1
        return "pile"


def run(table: Table, cmd: Command | TagSeen | ButtonPressed) -> Result:
    result = table.process(cmd)
    assert result.accepted, result.reason
    return result


def action(table: Table, line: Mapping[str, Any], source: Source = HOST) -> Result:
    return run(table, Command("action", {"action": dict(line)}, source=source))


# --- card stats: Crime Lords' card_stats feature ------------------------------------


def crime_lords_at_first_draw(table: Table) -> None:
    """Two Mobs set up by the host; Ann (seat 0) has collected and may draw."""
    run(table, Command("start", {"game": "crime_lords", "players": ["Ann", "Ben"],
                                 "options": {"draw_rule": "free"}}))
    for line in (
        {"do": "take_mob", "seat": 0, "card": "mob_01", "stats": {"boss_bonus": 3}},
        {"do": "take_mob", "seat": 1, "card": "mob_02", "stats": {"boss_bonus": 2}},
        {"do": "buy", "seat": 0, "card": "crook_01", "price": 5, "stats": MOM},
        {"do": "buy", "seat": 1, "card": "crook_03", "price": 5,
         "stats": {"name": "Judge", "power": 5, "resistance": 5}},
        {"do": "choose_boss", "seat": 0, "card": "crook_01"},
        {"do": "choose_boss", "seat": 1, "card": "crook_03"},
        {"do": "start", "first": 0},
        {"do": "collect", "seat": 0},
    ):
        action(table, line)


def draw_by(table: Table, who: str, deck: Deck, card: str) -> None:
    """Ann draws ``card``: entered by the host, sent from her phone, or seen by the camera."""
    if who == "camera":
        serial = card_serial(deck, card)
        assert serial is not None
        run(table, TagSeen(encode_payload(deck, serial), at=table.clock(), zone="center",
                           status="ok", game="crime_lords", card=card, serial=serial))
    else:
        source = HOST if who == "host" else Source.of_seat(0)
        action(table, {"do": "draw", "seat": 0, "card": card}, source)


@pytest.mark.parametrize("who", ["host", "phone", "camera"])
def test_a_drawn_card_the_deck_knows_gets_its_stats_from_the_table(
        who: str, state_dir: Path) -> None:
    table = Table(MemoryStore(), clock=FakeClock())  # the standard reactions, no web app
    crime_lords_at_first_draw(table)
    deck = Deck.new("crime_lords", "home", state_dir)  # the stats entered during the game
    serial = card_serial(deck, "crook_20")
    assert serial is not None
    deck.set_card_stats(serial, SLIM)
    before = table.hub.latest().seq

    draw_by(table, who, deck, "crook_20")

    snap = table.hub.latest()
    assert snap.seq == before + 1  # one loop turn, one snapshot: the draw with its stats
    assert snap.public["pending"] is None
    assert [c["name"] for c in snap.public["center"]] == ["Slim"]
    assert snap.refusal is None
    assert table.session is not None
    stored = [json.loads(line) for line in table.record_lines()[1:]]
    assert stored[-1]["do"] in ("draw", "stats") and stored[-1]["stats"] == SLIM


def test_the_stats_follow_up_is_stored_as_sent_by_the_table(state_dir: Path) -> None:
    table = Table(MemoryStore(), clock=FakeClock())
    crime_lords_at_first_draw(table)
    deck = Deck.new("crime_lords", "home", state_dir)
    deck.set_card_stats(card_serial(deck, "crook_20") or 0, SLIM)
    action(table, {"do": "draw", "seat": 0, "card": "crook_20"}, Source.of_seat(0))
    assert table.session is not None
    draw, stats = table.session.batches[-2:]
    assert (draw.action.do, draw.sender) == ("draw", 0)
    assert (stats.action.do, stats.sender) == ("stats", "table")
    assert stats.action.to_json()["stats"] == SLIM
    assert stored_stats(deck, "crook_20") == SLIM  # the deck is read, never written


def test_a_card_the_deck_does_not_know_is_asked_for(state_dir: Path) -> None:
    table = Table(MemoryStore(), clock=FakeClock())
    crime_lords_at_first_draw(table)
    Deck.new("crime_lords", "home", state_dir)
    action(table, {"do": "draw", "seat": 0, "card": "crook_20"})
    pending = table.hub.latest().public["pending"]
    assert pending is not None and pending["card"] == "crook_20"  # Ann types them


def test_without_the_reaction_nothing_is_filled(state_dir: Path) -> None:
    """The reaction is what fills them: a table without it asks the player."""
    table = Table(MemoryStore(), clock=FakeClock(), reactions=[])
    crime_lords_at_first_draw(table)
    deck = Deck.new("crime_lords", "home", state_dir)
    deck.set_card_stats(card_serial(deck, "crook_20") or 0, SLIM)
    action(table, {"do": "draw", "seat": 0, "card": "crook_20"})
    assert table.hub.latest().public["pending"] is not None


def test_stats_the_game_refuses_leave_the_draw_standing(state_dir: Path) -> None:
    """A follow-up the rules refuse is logged, never a refusal of the draw: the player
    then types the stats."""
    table = Table(MemoryStore(), clock=FakeClock())
    crime_lords_at_first_draw(table)
    deck = Deck.new("crime_lords", "home", state_dir)
    deck.set_card_stats(card_serial(deck, "racket_50") or 0, {
        "income": 1, "resistance": 1, "district": "Narnia"})
    result = action(table, {"do": "draw", "seat": 0, "card": "racket_50"})
    snap = table.hub.latest()
    assert result.accepted and snap.refusal is None
    assert snap.public["pending"]["card"] == "racket_50"


def test_a_game_start_sends_the_decks_known_cards(state_dir: Path) -> None:
    deck = Deck.new("crime_lords", "home", state_dir)
    deck.set_card_stats(card_serial(deck, "crook_01") or 0, MOM)
    table = Table(MemoryStore(), clock=FakeClock())
    run(table, Command("start", {"game": "crime_lords", "players": ["Ann", "Ben"]}))
    assert table.session is not None
    assert table.session.state.ready("crook_01") and not table.session.state.ready("crook_02")
    (loaded,) = table.session.batches
    assert (loaded.action.do, loaded.sender) == ("deck_cards", "table")
    assert loaded.action.to_json()["cards"] == [{"card": "crook_01", "stats": MOM}]
    host = table.hub.latest().host or {}
    labels = [c["label"] for m in host.get("moves", []) for p in m.get("params", [])
              for c in p.get("choices", [])]
    assert "Mom" in labels  # the deck's card is picked by name
    action(table, {"do": "buy", "seat": 0, "card": "crook_01", "price": 4})
    assert table.hub.latest().public["mobs"][0]["crooks"][0]["name"] == "Mom"


def test_a_game_without_the_feature_or_a_deck_sends_nothing(state_dir: Path) -> None:
    table = Table(MemoryStore(), clock=FakeClock())
    run(table, Command("start", {"game": "crime_lords", "players": ["Ann", "Ben"]}))
    assert table.session is not None and table.session.batches == ()
    run(table, Command("start", {"game": "tally", "players": ["Ann", "Ben"]}))
    assert table.session.batches == ()
    react = DeckStats(state_dir)
    tally = games.get("tally")
    assert react(Committed(tally, table.session.state, started=True)) == []


def test_a_failing_reaction_is_logged_and_the_game_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    def broken(_done: Committed) -> Sequence[Mapping[str, Any]]:
        raise RuntimeError("a bug in a reaction")

    table = Table(MemoryStore(), clock=FakeClock(), reactions=[broken])
    run(table, Command("start", {"game": "tally", "players": ["Ann", "Ben"]}))
    action(table, {"do": "add", "seat": 0, "n": 3})
    assert table.hub.latest().refusal is None
    assert "a reaction failed" in caplog.text


def test_reactions_that_answer_each_other_are_stopped(
        caplog: pytest.LogCaptureFixture) -> None:
    """Follow-ups are reacted to in turn, but never for ever."""
    seen: list[int] = []

    def again(done: Committed) -> Sequence[Mapping[str, Any]]:
        if done.started:
            return []
        seen.append(len(done.events))
        return [{"do": "add", "seat": done.state.turn, "n": 1}]

    table = Table(MemoryStore(), clock=FakeClock(), reactions=[again])
    run(table, Command("start", {"game": "tally", "players": ["Ann", "Ben"],
                                 "options": {"target": 99}}))
    action(table, {"do": "add", "seat": 0, "n": 3})
    assert table.session is not None and table.session.state.total == 3 + MAX_FOLLOW_UPS
    # reacted to: the input's batch and each follow-up but the last, which is not answered
    assert len(seen) == MAX_FOLLOW_UPS
    assert "the table stopped them" in caplog.text


# --- zone growth: The Nasty 7's zone_growth feature ---------------------------------


def nasty7_with_a_card_beside(table: Table, game: str = "nasty7") -> FakeCamera:
    camera = FakeCamera()
    grow_zones(table, camera)
    run(table, Command("start", {"game": game, "players": ["Ann", "Ben"]}))
    action(table, {"do": "seen_beside", "card": "racketeer"}, TABLE)
    assert camera.counted == 0
    return camera


def test_a_count_from_the_host_phone_grows_the_zone() -> None:
    table = Table(MemoryStore(), clock=FakeClock())
    camera = nasty7_with_a_card_beside(table)
    action(table, {"do": "count_seen", "count": True}, HOST)
    assert camera.counted == 1


def test_a_card_not_counted_grows_nothing() -> None:
    table = Table(MemoryStore(), clock=FakeClock())
    camera = nasty7_with_a_card_beside(table)
    action(table, {"do": "count_seen", "count": False}, HOST)
    assert camera.counted == 0


def test_a_count_from_the_tables_own_source_grows_the_zone() -> None:
    table = Table(MemoryStore(), clock=FakeClock())
    camera = nasty7_with_a_card_beside(table)
    action(table, {"do": "count_seen", "count": True}, TABLE)
    assert camera.counted == 1


def counts_on_confirm(engine: AnyEngine) -> AnyEngine:
    """The Nasty 7 whose host ``confirm`` button counts a card seen beside the pile."""

    def action_for_input(state: Any, inp: TableInput) -> Any:
        if isinstance(inp, ButtonInput) and inp.role == "confirm" and state.seen_beside:
            return engine.parse({"do": "count_seen", "count": True})
        return engine.action_for_input(state, inp)

    return replace(engine, name="nasty7_counting_button", aliases=(),
                   action_for_input=action_for_input)


def test_a_count_from_a_button_grows_the_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    variant = counts_on_confirm(games.get("nasty7"))
    monkeypatch.setitem(games._extra, variant.name, variant)
    table = Table(MemoryStore(), clock=FakeClock())
    camera = nasty7_with_a_card_beside(table, variant.name)
    run(table, ButtonPressed("confirm", at=table.clock()))
    assert camera.counted == 1
    assert table.session is not None and table.session.batches[-1].sender == "table"


def test_a_count_from_the_demo_grows_the_zone() -> None:
    """The demo's record player sends each line as the table, the host or a phone would."""
    table = Table(MemoryStore(), clock=FakeClock())
    camera = FakeCamera()
    grow_zones(table, camera)
    lines = [json.dumps({"game": "nasty7", "seats": ["Ann", "Ben"]}),
             json.dumps({"t": 1.0, "do": "seen_beside", "card": "racketeer"}),
             json.dumps({"t": 2.0, "do": "count_seen", "count": True})]
    player = RecordPlayer(table, lines, min_gap=0.0, max_gap=0.0)
    table.start()
    try:
        player.play_once()
    finally:
        table.stop()
    assert player.refused == []
    assert camera.counted == 1


def test_a_broken_camera_does_not_stop_the_game(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        def count_beside(self) -> str | None:
            raise OSError("the camera is gone")

    table = Table(MemoryStore(), clock=FakeClock())
    grow_zones(table, Broken())
    run(table, Command("start", {"game": "nasty7", "players": ["Ann", "Ben"]}))
    action(table, {"do": "seen_beside", "card": "racketeer"}, TABLE)
    result = action(table, {"do": "count_seen", "count": True})
    assert result.accepted and table.hub.latest().refusal is None
    assert "zone_growth listener failed" in caplog.text


def test_an_undo_is_not_reacted_to() -> None:
    """What the host took back is not done again by a reaction."""
    heard: list[Committed] = []

    def listen(done: Committed) -> Sequence[Mapping[str, Any]]:
        heard.append(done)
        return []

    table = Table(MemoryStore(), clock=FakeClock(), reactions=[listen])
    camera = nasty7_with_a_card_beside(table)
    action(table, {"do": "count_seen", "count": True})
    calls = len(heard)
    run(table, Command("undo"))
    assert len(heard) == calls and camera.counted == 1
