"""Crime Lords views: showdown hands and treasuries stay private."""

from __future__ import annotations

from companion.games.crime_lords import engine
from tests.games.crime_lords.helpers import deep_mobs, find_amounts


def test_showdown_is_secret_until_all_hands_are_in() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="recruit", attacker="crook_01", target="crook_07")
    t.do(do="showdown", seat=0, amount=17)
    t.do(do="showdown", seat=2, amount=9, side="for")
    public = engine.public_view(t.state)
    assert find_amounts(public, 17) == [] and find_amounts(public, 9) == []
    assert public["attack"]["committed"] == [0, 2]
    assert find_amounts(engine.seat_view(t.state, 1), 17) == []
    assert find_amounts(engine.seat_view(t.state, 1), 9) == []
    assert engine.seat_view(t.state, 0)["me"]["showdown"] == {"amount": 17, "side": "for"}
    assert engine.seat_view(t.state, 2)["me"]["showdown"] == {"amount": 9, "side": "for"}
    assert find_amounts(engine.seat_view(t.state, 2), 17) == []
    t.do(do="showdown", seat=1, amount=4)
    revealed = engine.public_view(t.state)["attack"]["revealed"]
    assert {(r["seat"], r["amount"], r["side"]) for r in revealed} == {
        (0, 17, "for"), (1, 4, "against"), (2, 9, "for")}


def test_treasuries_are_private() -> None:
    t = deep_mobs()
    assert t.money(0) == 37  # 50 - 13
    assert find_amounts(engine.public_view(t.state), 37) == []
    assert engine.seat_view(t.state, 0)["me"]["money"] == 37
    assert "money" not in str(engine.public_view(t.state)["mobs"])
