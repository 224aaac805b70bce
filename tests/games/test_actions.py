"""Typed actions (``companion.games.actions``): one parser, player-facing refusals, values
written back unchanged, and nothing wrong ever stored."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

import pytest

from companion import games
from companion.games.actions import (
    ActionError,
    ActionSet,
    GameAction,
    Spec,
    action_table,
    schema_of,
)
from companion.inputs import HOST, Command, Source
from companion.store import MemoryStore
from companion.table import Table
from tests.core import tally


@dataclass(frozen=True)
class Amount:
    agent: Annotated[str, Spec("the agent")]
    amount: Annotated[int, Spec("the amount", 100, 10_000, open=True)]


@dataclass(frozen=True, kw_only=True)
class Play(GameAction):
    """Play a card."""

    do: ClassVar[str] = "play"
    label: ClassVar[str] = "Play a card"
    card: Annotated[str, Spec("the card")]
    n: Annotated[int, Spec("the count", 1, 9)] | None = None
    cards: tuple[str, ...] | None = None
    ok: bool | None = None
    kind: Literal["wrong_number", "wrong_word"] | None = None
    amounts: tuple[Amount, ...] | None = None


ACTIONS = ActionSet("Test game", Play)


def test_a_line_becomes_a_value_and_is_written_back_unchanged() -> None:
    line = {"do": "play", "card": "x", "n": 3, "seat": 1, "cards": ["a", "b"],
            "amounts": [{"agent": "red", "amount": 500}], "kind": "wrong_word", "ok": False}
    act = ACTIONS.parse(line)
    assert isinstance(act, Play) and act.cards == ("a", "b") and act.seat == 1
    assert act.amounts == (Amount("red", 500),)
    assert act.to_json() == line and act.card == "x"
    assert not isinstance(act, Mapping)  # a plain value: to_json() where JSON is needed
    assert ACTIONS.parse(act) is act
    assert ACTIONS.parse({"do": "play", "card": "x", "n": 4.0}).to_json()["n"] == 4


@pytest.mark.parametrize(("line", "reason"), [
    ({"do": "fly"}, "That is not something anyone can do in Test game."),
    ("play", "That is not an action"),
    ({"do": "play"}, "Choose the card first."),
    ({"do": "play", "card": "x", "junk": "x" * 60000}, "was sent with something it does not take"),
    ({"do": "play", "card": "x", "n": 10}, "The count must be between 1 and 9."),
    ({"do": "play", "card": "x", "n": 2.5}, "The count must be a whole number."),
    ({"do": "play", "card": "x", "n": True}, "The count must be a number."),
    ({"do": "play", "card": "x", "n": float("nan")}, "The count must be a number."),
    ({"do": "play", "card": 7}, "The card must be text."),
    ({"do": "play", "card": {"x": [1, {"y": None}]}}, "The card must be text."),
    ({"do": "play", "card": "x" * 500}, "The card is too long"),
    ({"do": "play", "card": "x", "cards": "a"}, "must be a list"),
    ({"do": "play", "card": "x", "ok": 1}, "must be yes or no"),
    ({"do": "play", "card": "x", "seat": -1}, "The player must be between 0 and 11."),
    ({"do": "play", "card": "x", "kind": "shouting"}, "is not one of the choices"),
    ({"do": "play", "card": "x", "amounts": [{"agent": "red"}]}, "Enter the amount first."),
    ({"do": "play", "card": "x", "amounts": [{"agent": "red", "amount": 5}]},
     "The amount must be between 100 and 10,000."),
    ({"do": "play", "card": "x", "amounts": [[1]]}, "is not filled in the right way"),
])
def test_a_wrong_line_is_refused_in_a_players_words(line: object, reason: str) -> None:
    with pytest.raises(ActionError) as info:
        ACTIONS.parse(line)  # type: ignore[arg-type]
    assert reason in info.value.reason, info.value.reason
    assert "{" not in info.value.reason and '"' not in info.value.reason
    assert info.value.detail  # the field, for the log


def test_the_schema_and_the_doc_table_come_from_the_dataclasses() -> None:
    schema = schema_of(Play)
    assert schema["required"] == ["do", "card"] and not schema["additionalProperties"]
    assert schema["properties"]["n"] == {"type": "integer", "minimum": 1, "maximum": 9}
    table = action_table(ACTIONS)
    assert "| `play` | seat |" in table and "`amounts`?" in table and "| `deadline` |" in table


def test_a_game_cannot_declare_an_action_twice_or_an_untyped_field() -> None:
    with pytest.raises(ValueError, match="unique"):
        ActionSet("Twice", Play, Play)

    @dataclass(frozen=True, kw_only=True)
    class Odd(GameAction):
        """An action with a field the parser cannot read."""

        do: ClassVar[str] = "odd"
        value: complex

    with pytest.raises(TypeError):
        ActionSet("Odd", Odd).parse({"do": "odd", "value": 1})


def test_the_table_refuses_wrong_actions_before_storing() -> None:
    games.register(tally.engine)
    table = Table(MemoryStore())
    assert table.process(Command("start", {"game": "tally", "players": ["A", "B"]})).accepted
    res = table.process(Command("action", {"action": {"do": "add", "n": 1,
                                                      "junk": "x" * 65000}}))
    assert not res.accepted and "junk" not in (res.reason or "")
    res = table.process(Command("action", {"action": {"do": "add", "n": 1, "junk": 1}}))
    assert res.reason == ("Add to the total was sent with something it does not take: "
                          "send it again from the buttons.")
    res = table.process(Command("action", {"action": {"do": "add", "n": "lots"}},
                                source=Source.of_seat(0)))
    assert not res.accepted and res.reason == "The number to add must be a number."
    assert table.history() == []
    assert table.process(Command("action", {"action": {"do": "add", "n": 2}},
                                 source=HOST)).accepted
    # a phone's own seat is filled in by the table
    assert table.process(Command("action", {"action": {"do": "add", "n": 1}},
                                 source=Source.of_seat(1))).accepted
    assert [b.action.to_json()["n"] for b in table.session.batches] == [2, 1]  # type: ignore[union-attr]


def test_a_version_1_record_ignores_keys_its_actions_do_not_declare() -> None:
    """Format 1 ignored unknown keys (they were refused only from format 2 on)."""
    from companion.records import RecordError, replay_lines

    games.register(tally.engine)
    head = '{"record": "table-companion", "version": %d, "game": "tally", "seats": 2}'
    line = '{"t": 1, "do": "add", "n": 3, "note": "an old key"}'
    replay = replay_lines([head % 1, line])
    assert replay.state["total"] == 3
    with pytest.raises(RecordError, match="line 2"):
        replay_lines([head % 2, line])
