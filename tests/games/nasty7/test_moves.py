"""The Nasty 7: what each seat and the host may do now, old records, the typed actions."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import IllegalAction
from companion.games.moves import Move
from companion.games.nasty7 import State, engine
from companion.games.nasty7.actions import ACTIONS, Accuse, Reassign
from companion.games.nasty7.state import upgrade_options
from tests.games.nasty7.helpers import act, plays, run, start


def _moves(state: State, who: int | None, do: str) -> list[Move]:
    return [m for m in engine.moves(state, who) if m.do == do]


def _accepted(state: State, move: Move, t: float = 9.0) -> None:
    for action in move.actions():
        engine.decide(state, action, t)  # raises if the move offered something refused


def test_a_seat_may_accuse_the_last_player_with_or_without_saying_what() -> None:
    state = run(start(3), plays("racketeer", "twin_racketeer"))  # Ben played last
    plain, which = _moves(state, 2, "accuse")
    assert (plain.label, which.label) == ("Accuse Ben", "Accuse Ben of a mistake")
    assert plain.fixed == which.fixed == {"seat": 2, "by": [2], "against": 1}
    assert [c.value for c in which.params[0].choices] == [
        "wrong_number", "wrong_word", "spoke_on_gun", "hesitation"]  # fmt: skip
    for move in (plain, which):
        _accepted(state, move)
    assert _moves(state, 0, "play") == []  # a card comes from the camera, never a phone


def test_joining_names_the_same_allegation_or_none() -> None:
    state = run(start(4), plays("racketeer", "racketeer"))
    state = act(state, {"do": "accuse", "by": [2], "against": 1, "kind": "hesitation"}, 2.5)
    plain, which = _moves(state, 3, "accuse")
    assert plain.label == "Join the accusation against Ben"
    assert which.label == "Join: Ben is accused of hesitating"
    assert [c.value for c in which.params[0].choices] == ["hesitation"]
    _accepted(state, which)
    kindless = act(run(start(4), plays("racketeer", "racketeer")),
                   {"do": "accuse", "by": [2], "against": 1}, 2.5)  # fmt: skip
    assert [m.label for m in _moves(kindless, 3, "accuse")] == ["Join the accusation against Ben"]


def test_the_host_rules_withdraws_or_adds_accusers_while_an_accusation_waits() -> None:
    state = run(start(3), plays("racketeer"))
    state = act(state, {"do": "accuse", "by": [1], "against": 0}, 1.5)
    host = engine.moves(state, None)
    assert [(m.do, m.label, m.allowed) for m in host] == [
        ("rule", "Upheld: Ann takes the pile", True),
        ("rule", "Not upheld: the accusers take the pile", True),
        ("withdraw", "Withdrawn: no penalty", True),
        ("accuse", "More players accuse Ann", True),
        ("missed_card", "Enter a card by hand", False),
    ]  # fmt: skip
    assert host[-1].why == "Wait: Ben accuses Ann; the host must rule first."
    assert host[-1].why == engine_refusal(state, {"do": "missed_card", "card": "gun"})
    for move in host[:-1]:
        _accepted(state, move)


def engine_refusal(state: State, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as refused:
        engine.decide(state, action, 9.0)
    return refused.value.reason


def test_the_host_enters_cards_mistakes_hesitations_and_corrections() -> None:
    """A card comes from the camera (``play`` is the table's action); the host enters one
    by hand as a card of the player to play (``missed_card``), and gives it to another
    player with "the last card was played by" (who then takes the pile)."""
    state = run(start(3), plays("racketeer", "twin_racketeer"))  # Cy skips, Ann to play
    host = {m.label: m for m in engine.moves(state, None)}
    assert {m.do for m in host.values()} == {"accuse", "mistake", "hesitation", "reassign",
                                              "replace_card", "missed_card"}  # fmt: skip
    hand, missed = host["Ann played a card"], host["The camera missed a card of Ann"]
    assert [p.name for p in hand.params] == ["card"]
    assert hand.params[0].label == "Which card did Ann play?"
    assert [p.name for p in missed.params] == ["card", "ago"]
    assert [c.label for c in host["The last card was played by"].params[0].choices] == [
        "Ann", "Cy"]  # fmt: skip
    really = host["The last card was really"].params[0].choices
    assert "Twin racketeers" not in [c.label for c in really]
    assert "Ann hesitated (more than 3 s)" in host
    for move in engine.moves(state, None):
        _accepted(state, move, 2.5)
    by_hand = act(state, {"do": "missed_card", "card": "gun"}, 2.5)
    ben = act(by_hand, {"do": "reassign", "by": 1}, 2.6)  # Ben put it down: out of turn
    assert ben.stacks == (35, 37, 36) and ben.turn == 1 and not ben.pile
    played = act(state, {"do": "play", "card": "gun", "seat": 1}, 2.5)  # a record's way
    assert (played.stacks, played.turn, played.reveal) == (ben.stacks, ben.turn, ben.reveal)


def test_no_twins_are_offered_without_twins() -> None:
    state = run(start(3, no_twins=True), plays("racketeer"))
    for missed in _moves(state, None, "missed_card"):
        assert [c.label for c in missed.params[0].choices] == ["Racketeer", "Mobile phone", "Gun"]
    (really,) = _moves(state, None, "replace_card")
    assert [c.label for c in really.params[0].choices] == ["Mobile phone", "Gun"]


def test_the_phone_word_is_a_text_move_of_the_seat_that_chooses_it() -> None:
    """Nasty rule: the first phone's player gets a ``word`` move (open text, 1 to 60
    characters); nobody else does, and nobody once the word is chosen."""
    state = run(start(3, nasty="first_round"), plays("racketeer", "phone"))
    assert engine.waiting(state).asks == {1: "Choose the phone word for this round."}
    (word,) = _moves(state, 1, "word")
    assert (word.label, word.fixed, word.allowed) == ("Choose the phone word", {"seat": 1}, True)
    (text,) = word.params
    assert (text.kind, text.minimum, text.maximum) == ("text", 1, 60)
    assert "{" not in text.label and "text" not in text.label
    _accepted(state, word, 2.5)
    assert all(not _moves(state, who, "word") for who in (0, 2, None))
    chosen = act(state, next(word.actions()), 2.5)
    assert chosen.word == "Slim"
    assert all(not _moves(chosen, who, "word") for who in (0, 1, 2, None))
    assert act(state, {"do": "word", "text": "ouch", "seat": 1}, 2.5).word == "ouch"
    plain = run(start(3), plays("racketeer", "phone"))  # no nasty rule: no word to choose
    assert all(not _moves(plain, who, "word") for who in (0, 1, 2, None))


def test_a_phone_cannot_rule_on_its_own_accusation() -> None:
    state = run(start(3), plays("racketeer"))
    with pytest.raises(IllegalAction, match="Only the host can give the ruling"):
        engine.admit({"do": "accuse", "by": [1], "against": 0, "upheld": True}, 1)
    settled = act(state, {"do": "accuse", "by": [1], "against": 0, "upheld": True}, 1.5)
    assert settled.stacks[0] == 36  # the host's entry settles at once: Ann takes her card


@pytest.mark.parametrize("version, options, dealt", [
    (1, {}, 110),  # version 1: 110 cards whatever no_twins said
    (1, {"no_twins": True}, 110),
    (1, {"deck_size": 60}, 60),
    (2, {"no_twins": True}, 85),  # now: the whole deck without its 25 twins
    (2, {}, 110),
])  # fmt: skip
def test_old_records_deal_what_they_dealt_then(
    version: int, options: dict[str, Any], dealt: int
) -> None:
    state = start(3, **upgrade_options(version, options))
    assert sum(state.stacks) + state.out_of_game == dealt


def test_record_keys_named_by_keep_their_meaning_and_the_sender() -> None:
    """``by`` is a record key (accusers, the real player); ``by_`` holds it, ``by`` the sender."""
    assert (Accuse.by, Reassign.by) == ("seat", "host")
    assert ACTIONS.parse({"do": "accuse", "by": 2, "against": 0}).to_json() == {
        "do": "accuse", "by": 2, "against": 0}  # fmt: skip
    reassign = ACTIONS.parse({"do": "reassign", "by": 1})
    assert isinstance(reassign, Reassign) and reassign.by_ == 1 and reassign.to_json()["by"] == 1
