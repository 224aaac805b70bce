"""Crime Lords' ``moves`` against ``decide``, over every state of every recorded game and of
random games played from ``moves`` alone.

- every complete action built from an allowed move is accepted by ``decide``;
- every accepted action of a seat or the host whose fields are all closed (no value the
  player types) is offered by some move of its sender;
- a move that is not allowed says why, and no label shows a card id.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.actions import fields_of
from companion.games.base import IllegalAction, Setup
from companion.games.crime_lords import State, engine
from companion.games.crime_lords.actions import ACTIONS
from companion.games.moves import offered
from companion.records import VERSION, parse_header
from tests.games.crime_lords.helpers import Table, two_mobs

ROOT = Path(__file__).resolve().parents[3]
def _first(path: Path) -> Any:
    return json.loads(next(x for x in path.read_text(encoding="utf-8").splitlines()
                            if x.strip() and not x.lstrip().startswith("#")))


#: records of today's format (an older record follows its own format's meaning; the
#: shared tests/games/test_moves.py walks those states too)
RECORDS = [p for p in sorted((ROOT / "tests" / "records").glob("**/crime_lords/*.jsonl")) + [
    ROOT / "companion" / "demos" / "crime_lords.jsonl"]
    if parse_header(_first(p)).version == VERSION]
CARD_ID = re.compile(r"\b(crook|racket|mob|special)_\d+\b")


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()
            if x.strip() and not x.lstrip().startswith("#")]


def steps() -> Iterator[tuple[State, dict[str, Any] | None]]:
    """(state, the next recorded action or None) over every recorded game."""
    for path in RECORDS:
        lines = _lines(path)
        header = parse_header(lines[0])
        state = engine.new_game(header.setup())
        for action in lines[1:]:
            t = float(action.pop("t"))
            yield state, action
            try:
                state, _ = engine.run(state, action, t)
            except IllegalAction:
                continue
        yield state, None


def sender(action: dict[str, Any]) -> int | None:
    kind = ACTIONS.kinds[action["do"]]
    return None if kind.by == "host" else action.get("seat")


def closed(action: dict[str, Any]) -> bool:
    kind = ACTIONS.kinds[action["do"]]
    return not any(i.spec.open and action.get(i.name) is not None for i in fields_of(kind))


def never_seen(state: State, action: dict[str, Any]) -> bool:
    """A card comes into play that neither this game nor the deck knows."""
    card = action.get("card")
    return (action["do"] in ("draw", "buy", "take_mob", "uncontrolled")
            and isinstance(card, str) and not state.ready(card))


def check_moves(state: State) -> int:
    """Every action built from every allowed move of every seat and the host is accepted."""
    built = 0
    for seat in (None, *range(len(state.seats))):
        for move in engine.moves(state, seat):
            assert not CARD_ID.search(move.label), move.label
            assert move.allowed or move.why, move
            if not move.allowed:
                continue
            for action in move.actions(limit=40):
                try:
                    engine.decide(state, action, 1.0)
                except IllegalAction as err:
                    raise AssertionError(f"{move.label}: {action} refused: {err}") from err
                built += 1
    return built


def test_every_move_is_accepted_and_every_recorded_action_offered() -> None:
    built = checked = 0
    for state, action in steps():
        built += check_moves(state)
        if action is None or action.get("do") not in ACTIONS:
            continue
        try:
            engine.decide(state, action, 1.0)
        except IllegalAction:
            continue
        parsed = ACTIONS.parse(action).to_json()
        if never_seen(state, parsed):
            # a card neither the game nor the deck knows is the camera's to name (its
            # tag); by hand it is "a new Crook", whichever unused card that takes
            kind = parsed["card"].split("_")[0]
            assert any(f"new {kind}" in m.label.lower() or "not entered" in m.label
                       for m in engine.moves(state, sender(parsed))), parsed
        elif closed(parsed):
            moves = engine.moves(state, sender(parsed))
            assert offered(moves, parsed), f"{parsed} accepted but not offered"
            checked += 1
    assert built > 1000 and checked > 200, (built, checked)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_played_from_moves(seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new_game(Setup(("Ann", "Ben", "Cy"), {"draw_rule": "free"}))
    for card, seat in (("mob_01", 0), ("mob_02", 1), ("mob_03", 2)):
        state, _ = engine.run(state, {"do": "take_mob", "seat": seat, "card": card}, 0.0)
    stats = {"power": 3, "resistance": 2, "income": 3, "name": "Someone"}
    n = 0
    for seat in range(3):
        for _ in range(2):
            n += 1
            card = f"crook_{n:02d}"
            state, _ = engine.run(state, {"do": "buy", "seat": seat, "card": card, "price": 0,
                                          "stats": {**stats, "power": 1 + (n % 5)}}, 0.0)
        state, _ = engine.run(state, {"do": "buy", "seat": seat, "card": f"racket_{seat + 1:02d}",
                                      "price": 0, "stats": stats}, 0.0)
    for step in range(400):
        check_moves(state)
        options = [(seat, m) for seat in (None, *range(3)) for m in engine.moves(state, seat)
                   if m.allowed and m.do not in ("leave",)]
        if not options:
            break
        _, move = rng.choice(options)
        action = rng.choice(list(move.actions(limit=40)))
        if action["do"] == "draw" and not state.known(action["card"]):
            action["stats"] = stats
        state, _ = engine.run(state, action, float(step))
        if state.pending is not None:
            state, _ = engine.run(state, {"do": "stats", "seat": state.pending[0],
                                          "card": state.pending[1], "stats": stats}, float(step))


def _accepted(state: State, move: Any) -> int:
    n = 0
    for action in move.actions():
        engine.decide(state, action, 1.0)  # raises if the move offered something refused
        n += 1
    return n


def test_typed_values_have_moves_the_rules_accept() -> None:
    """A card's stats (only when a new card comes into play or the engine waits for
    them), an ability's term in an attack and its effect on one's turn are moves too."""
    setup = Table()
    host = {m.label: m for m in engine.moves(setup.state, None)}
    crook = host["Ann won a new Crook"]
    stats = crook.params[-1]
    assert stats.kind == "fields"
    assert [(f.name, f.label, f.kind, f.fewest) for f in stats.fields] == [
        ("power", "The Power", "one", 1), ("resistance", "The Resistance", "one", 1),
        ("name", "The name on the card", "text", 0), ("weakness", "The Weakness", "one", 0),
        ("ability", "Is he a Bodyguard?", "one", 0)]
    assert [(c.value, c.label) for c in stats.fields[4].choices] == [
        (None, "No"), ("Bodyguard", "Yes, a Bodyguard")]
    assert [c.label for c in stats.fields[3].choices] == [
        "None", "Casinos", "Crooked Precinct", "Loan Shark", "Numbers", "Protection",
        "Street Gang", "Other"]
    # a fresh deck: the rulebook's range ("No Crook can have Power greater than 6")
    assert [c.label for c in stats.fields[0].choices] == ["0", "1", "2", "3", "4", "5", "6"]
    racket = {f.name: f for f in host["Ann won a new Racket"].params[-1].fields}
    assert list(racket)[:2] == ["income", "resistance"] and {"district", "type"} <= set(racket)
    assert [c.value for c in racket["district"].choices] == [
        "North Side", "South Side", "East Side", "West Side", "Central", "Other"]
    assert racket["type"].kind == "one" and racket["type"].choices[-1].label == "Other"
    for label in ("Ann won a new Crook", "Ann won a new Racket", "Ann's Mob: a Mob card not "
                  "entered yet", "Turn up a new Crook in the center"):
        assert _accepted(setup.state, host[label])

    t = two_mobs()
    t.do(do="collect", seat=0)
    draws = {m.label: m for m in engine.moves(t.state, 0) if m.do == "draw"}
    assert _accepted(t.state, draws["Draw a new Racket"])
    assert "Draw a card" not in draws  # no card of the deck known by name: only new ones
    assert all(m.do != "stats" for m in engine.moves(t.state, 0))  # nothing waits for stats
    t.do(do="draw", seat=0, card="crook_20")  # drawn without stats: the game waits
    (mine,) = [m for m in engine.moves(t.state, 0) if m.do == "stats"]
    assert mine.fixed == {"seat": 0, "card": "crook_20"} and mine.label == (
        "Enter the stats of the new Crook")
    (hosts,) = [m for m in engine.moves(t.state, None) if m.do == "stats"]
    assert not [m for m in engine.moves(t.state, 1) if m.do == "stats"]
    for move in (mine, hosts):
        assert _accepted(t.state, move)
    t.do(**next(mine.actions()))
    assert t.state.pending is None

    adjust = [m for m in engine.moves(t.state, 0) if m.do == "adjust"]
    assert {m.fixed["what"] for m in adjust} == {"money", "unhappy", "power", "token"}
    assert not [m for m in engine.moves(t.state, 1) if m.do in ("adjust", "modify")]
    for move in adjust:
        assert _accepted(t.state, move)
    t.do(do="attack", seat=0, kind="recruit", attacker="crook_01", target="crook_05")
    for seat in (0, 1):
        (modify,) = [m for m in engine.moves(t.state, seat) if m.do == "modify"]
        assert [p.kind for p in modify.params] == ["number", "text"]
        assert _accepted(t.state, modify)
    money = {m.fixed["what"]: m for m in engine.moves(t.state, 0) if m.do == "adjust"}["money"]
    assert money.params[0].minimum == -t.money(0)
    assert not CARD_ID.search(" ".join(p.label for m in adjust for p in m.params))


def _numbers(move: Any) -> dict[str, list[str]]:
    """A move's stats part: each pick-list of numbers, as its labels in order."""
    (stats,) = [p for p in move.params if p.kind == "fields"]
    return {f.name: [c.label for c in f.choices] for f in stats.fields
            if f.kind == "one" and f.name not in ("district", "type", "weakness")}


def test_a_new_cards_numbers_are_pick_lists_the_decks_values_first() -> None:
    """On a fresh deck a new card's numbers are the rulebook's ranges (the catalog's
    ``stats_ranges``); once the deck holds cards, or this game entered some, their
    values come first, the most frequent first, a value beyond the range included; only
    the name is typed."""
    t = Table()
    host = {m.label: m for m in engine.moves(t.state, None)}
    assert _numbers(host["Ann's Mob: a Mob card not entered yet"]) == {
        "boss_bonus": ["0", "1", "2", "3", "4", "5"], "extra_draws": ["0", "1"]}
    assert _numbers(host["Ann won a new Racket"]) == {
        "income": [str(v) for v in range(11)], "resistance": [str(v) for v in range(11)],
        "power": ["No Power", *(str(v) for v in range(1, 7))]}
    typed = [f.name for m in host.values() for p in m.params if p.kind == "fields"
             for f in p.fields if f.kind == "text"]
    assert set(typed) == {"name"}
    t.do(do="deck_cards", cards=[
        {"card": "crook_30", "stats": {"name": "Lefty Lou", "power": 2, "resistance": 12}},
        {"card": "crook_31", "stats": {"name": "Kid", "power": 1, "resistance": 12}},
        {"card": "mob_03", "stats": {"name": "The Tongs", "boss_bonus": 2}}])
    t.do(do="take_mob", seat=0, card="mob_01", stats={"name": "The Old Family", "boss_bonus": 3})
    t.do(do="buy", seat=0, card="crook_01", price=10,
         stats={"name": "Mom Parker", "power": 6, "resistance": 4})
    host = {m.label: m for m in engine.moves(t.state, None)}
    crook = _numbers(host["Ann won a new Crook"])
    assert crook["power"] == ["1", "2", "6", "0", "3", "4", "5"]
    assert crook["resistance"] == ["12", "4", *(str(v) for v in range(11) if v != 4)]
    assert _numbers(host["Ben's Mob: a Mob card not entered yet"])["boss_bonus"] == [
        "2", "3", "0", "1", "4", "5"]
    for label in ("Ann won a new Crook", "Ben's Mob: a Mob card not entered yet"):
        assert _accepted(t.state, host[label])  # the deck's 12, beyond the range, too
