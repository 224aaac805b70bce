"""The rules added at the table: stats asked for a drawn card, the draw count, a Crook
given away, leaving, sharing one short; and what the views give the screens (the attack
builder's numbers, what a seat can do, the history sentences, the setup controls)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.games.base import IllegalAction, TagInput
from companion.games.crime_lords import engine
from companion.games.crime_lords.attack import breakdown
from companion.games.crime_lords.events import GameStarted, Given
from companion.games.crime_lords.legality import draws_owed
from companion.games.crime_lords.moves import chance
from companion.games.crime_lords.state import DEFAULT_OPTIONS as default_options
from tests.games.crime_lords.helpers import ANITA, Table, deep_mobs, two_mobs


def test_a_card_drawn_without_stats_waits_for_them() -> None:
    t = two_mobs()
    t.do(do="collect", seat=0)
    t.do(do="draw", seat=0, card="crook_20")
    view = engine.public_view(t.state)
    assert view["pending"] == {"seat": 0, "card": "crook_20", "kind": "crook",
                               "name": "Crook not yet entered"}  # never its slot
    assert "enter its stats" in view["status"]
    with pytest.raises(IllegalAction, match="Enter the stats of the card just drawn"):
        t.do(do="end_turn", seat=0)
    with pytest.raises(IllegalAction, match="Ann drew that card"):
        t.do(do="stats", seat=1, card="crook_20", stats={"power": 1, "resistance": 1})
    with pytest.raises(IllegalAction, match="Enter the Power printed on Crook 20"):
        t.do(do="stats", seat=0, card="crook_20", stats={"name": "Slim"})
    t.do(do="stats", seat=0, card="crook_20", stats={"name": "Slim", "power": 1, "resistance": 1})
    view = engine.public_view(t.state)
    assert view["pending"] is None
    assert [c["name"] for c in view["center"]] == ["Anita Callahan", "Slim"]
    assert t.state.drawn == 1


def test_the_camera_brings_the_decks_stats_and_is_quiet_while_stats_are_asked() -> None:
    t = two_mobs()
    t.do(do="collect", seat=0)
    seen = TagInput(True, "crook_20", 28, "center", 5.0, stats={"power": 2, "resistance": 1})
    assert _json(engine.action_for_input(t.state, seen)) == {
        "do": "draw", "seat": 0, "card": "crook_20", "stats": {"power": 2, "resistance": 1}}
    wrong = TagInput(True, "crook_20", 28, "center", 5.0, stats={"name": {"x": [1]}})
    with pytest.raises(IllegalAction, match="The name on the card must be text"):
        engine.action_for_input(t.state, wrong)
    t.do(do="draw", seat=0, card="crook_21")
    again = TagInput(True, "crook_22", 30, "center", 6.0)
    assert engine.action_for_input(t.state, again) is None  # crook_21 waits for its stats


def test_draws_are_counted_until_four_lie_in_the_center() -> None:
    t = two_mobs(draw_rule="count")
    t.do(do="collect", seat=0)
    assert draws_owed(t.state) == 3  # one card lies in the center
    t.do(do="draw", seat=0, card="special_01")
    assert draws_owed(t.state) == 3  # a Special does not fill the center
    for n in (20, 21):
        t.do(do="draw", seat=0, card=f"crook_{n}", stats={"power": 1, "resistance": 1})
    with pytest.raises(IllegalAction, match="must first draw 1 more card"):
        t.do(do="attack", seat=0, kind="recruit", attacker="crook_01", target="crook_05")
    t.do(do="deck_empty", seat=0)
    assert draws_owed(t.state) == 0
    t.do(do="end_turn", seat=0)


def test_a_crook_is_given_only_with_a_token_and_never_the_boss() -> None:
    t = two_mobs()
    t.do(do="collect", seat=0)
    with pytest.raises(IllegalAction, match="cannot give away your Boss"):
        t.do(do="give", seat=0, to=1, card="crook_01")
    t.do(do="give", seat=0, to=1, card="crook_02")
    with pytest.raises(IllegalAction, match="waiting for an answer"):
        t.do(do="end_turn", seat=0)
    with pytest.raises(IllegalAction, match="Ben decides"):
        t.do(do="accept_crook", seat=0, under="crook_01")
    with pytest.raises(IllegalAction, match="cannot control a Crook of Power 4"):
        t.do(do="accept_crook", seat=1, under="crook_04")
    t.do(do="refuse_crook", seat=1)
    assert t.state.offer is None and t.crook(0, "crook_02") is not None
    t.do(do="adjust", seat=0, what="token", card="crook_02", delta=0, why="test")
    with pytest.raises(IllegalAction, match="no Action Token left"):
        t.do(do="give", seat=0, to=1, card="crook_02")


def test_leaving_during_a_gang_war_passes_the_war_turn_and_ends_a_war_of_one() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="hit", attacker="crook_01", target="crook_03", money=5)
    t.do(do="modify", seat=0, value=20, why="test")
    t.do(do="roll", seat=0, dice=[6, 6])
    assert t.state.war is not None and t.state.war.turn == 1
    t.do(do="leave", seat=1)
    assert t.state.war is None and t.state.mobs[1].out
    assert t.state.turn == 2  # the player after the one who started the war
    assert t.state.winners is None  # Ann and Cy are still in the game
    t.do(do="leave", seat=2)
    assert t.state.winners == (0,)


def test_the_builders_number_is_the_number_once_announced() -> None:
    t = deep_mobs()
    options = engine.public_view(t.state)["attacks"]
    hit = next(o for o in options if o["kind"] == "hit" and o["target"] == "crook_04"
               and o["attacker"] == "crook_01")
    recruit = [o for o in options if o["kind"] == "recruit"]
    assert all(o["target"] != "crook_03" for o in recruit)  # a rival Boss is never offered
    labels = [m["label"] for m in engine.seat_view(t.state, 0)["moves"] if m["do"] == "attack"]
    assert f"Mom Parker hits Shyster Shatner ({chance(hit['needed'])})" in labels
    assert not [x for x in labels if re.search(r"needs -?\d+\)", x)]  # never "needs -10"
    assert not [m for m in engine.seat_view(t.state, 1)["moves"]
                if m["do"] == "attack" and m["allowed"]]  # not Ben's turn
    t.do(do="attack", seat=0, kind="hit", attacker="crook_01", target="crook_04")
    assert t.state.attack is not None
    assert hit["terms"] == [list(x) for x in breakdown(t.state, t.state.attack)]
    assert hit["needed"] == engine.public_view(t.state)["attack"]["needed"]
    view = engine.public_view(t.state)["attack"]
    assert [h["card"] for h in view["aid"]] == ["crook_02"]
    assert [h["card"] for h in view["defense"]] == ["crook_04"]  # the target hides out


def test_a_seat_sees_its_own_money_and_what_it_can_do() -> None:
    t = two_mobs()
    view = engine.seat_view(t.state, 0)
    assert view["secrets"]["money"] == 50 and view["attention"]["act"]
    assert view["attention"]["why"] == "Ann collects income and pays off the gang."
    assert [m["do"] for m in view["moves"] if m["allowed"]][:1] == ["collect"]
    other = engine.seat_view(t.state, 1)
    assert not other["attention"]["act"] and other["attention"]["why"] == view["attention"]["why"]
    assert "money" not in str(engine.public_view(t.state).keys())


def test_history_sentences_name_players_and_cards_and_hide_amounts() -> None:
    players = ["Ann", "Ben"]
    t = Table()
    events = t.do(do="buy", seat=0, card="crook_05", price=3, stats=ANITA)
    assert engine.describe is not None
    said = engine.describe({"do": "buy", "seat": 0, "card": "crook_05", "price": 3},
                           events, players)
    assert said == "Ann won Anita Callahan in the auction for 3 G."
    # the dashboard hands over only the public keys: the price comes from the events
    assert engine.describe({"do": "buy", "seat": 0, "card": "crook_05"}, events, players) == (
        "Ann won Anita Callahan in the auction for 3 G.")
    assert engine.describe({"do": "start"}, [GameStarted(1, 50)], players) == (
        "The war for the city begins: Ben plays first.")
    assert engine.describe({"do": "showdown", "seat": 1, "amount": 9}, [], players) == (
        "Ben put a showdown hand on the table.")
    assert engine.describe({"do": "give", "seat": 1, "to": 0, "money": 9}, [], players) == (
        "Ben gave money to Ann.")
    assert engine.describe({"do": "attack", "seat": 0, "kind": "hit", "attacker": "crook_01",
                            "target": "crook_02"}, [], players) == (
        "Ann: a Crook tries to Hit a Crook.")  # no events name them: never "Crook 01"
    assert engine.describe({"do": "give", "seat": 0, "to": 1}, [Given(0, 1, money=2)],
                           players) == (
        "Ann gave money to Ben.")


def test_every_option_has_a_labelled_control_with_its_default_offered() -> None:
    specs = engine.option_specs
    # own_hit_keeps_war_turn, out_keeps_turn and wording are for version-1 records only
    # (upgrade_options)
    assert set(specs) == set(default_options) - {"own_hit_keeps_war_turn", "out_keeps_turn",
                                                 "wording"}
    for key, spec in specs.items():
        assert spec.label and spec.help, key
        if spec.choices:
            assert default_options[key] in [v for v, _ in spec.choices], key


@pytest.mark.parametrize(("options", "message"), [
    ({"draw_rule": "sometimes"}, "draw_rule"),
    ({"victory": "money"}, "victory"),
    ({"share_one_short": "yes"}, "share_one_short"),
    ({"auction_crooks": -1}, "auction_crooks"),
])
def test_bad_options_say_what_to_fix(options: dict[str, Any], message: str) -> None:
    from companion.games.base import SetupError

    with pytest.raises(SetupError, match=message):
        Table(**options)


def _json(action: Any) -> dict[str, Any]:
    """A typed action as the record line it stands for (``None``: nothing)."""
    return {} if action is None else dict(action.to_json())
