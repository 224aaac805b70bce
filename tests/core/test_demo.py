"""The demo: its scripts are real games that the table accepts from start to end."""

from __future__ import annotations

import pytest

from companion.demo import RecordPlayer, demo_payloads, demo_plays, demo_record, source_of
from companion.inputs import HOST, Source, TagSeen
from companion.records import replay_lines
from companion.store import MemoryStore
from companion.table import Table


@pytest.mark.parametrize("game", ["illegal", "casablanca", "crime_lords"])
def test_recorded_demo_plays_through_the_table_without_refusal(game: str) -> None:
    table = Table(MemoryStore())
    lines = demo_record(game)
    player = RecordPlayer(table, lines, min_gap=0, max_gap=0)
    table.start()
    try:
        player.play_once()
    finally:
        table.stop()
    assert player.refused == []
    assert table.session is not None
    expected = replay_lines(lines)
    assert table.session.engine.state_json(table.session.state) == expected.state


def test_phone_actions_come_from_their_seat() -> None:
    assert source_of({"do": "bribe", "seat": 2}) == Source.of_seat(2)
    assert str(source_of({"do": "bribe", "seat": 2})) == "seat:2"
    assert source_of({"do": "resolve"}) == HOST
    assert source_of({"do": "x", "seat": True}) == HOST


def test_nasty7_demo_script_is_a_game_with_hesitations() -> None:
    by_kind = demo_payloads("nasty7")
    assert sum(len(v) for v in by_kind.values()) == 110
    plays = demo_plays(by_kind)
    payloads = [p.payload for p in plays]
    assert len(payloads) == len(set(payloads)), "a physical card appears twice"
    gaps = [b.at - a.at for a, b in zip(plays, plays[1:], strict=False)]
    assert any(g > 3.0 for g in gaps) and all(g > 0 for g in gaps)
    # fed to the table as the camera would, the pauses become hesitation penalties
    clock = [100.0]
    table = Table(MemoryStore(), clock=lambda: clock[0])
    from companion.decks import resolve_tag
    from companion.demo import start_demo_game

    table.start()
    try:
        start_demo_game(table, "nasty7")
    finally:
        table.stop()
    start = clock[0]
    for play in plays[:30]:
        clock[0] = start + play.at
        info = resolve_tag(play.payload)
        res = table.process(TagSeen(play.payload, at=clock[0], zone="pile", status=info.status,
                                    game=info.game, card=info.card, serial=info.serial))
        assert res.accepted, res.reason
    assert table.session is not None
    reasons = [e for b in table.session.batches if b.kind == "deadline" for e in b.events]
    assert reasons, "the pauses should have cost someone a hesitation penalty"
