"""Casablanca's actions, declared once as typed values (``companion.games.actions``).

A bribe's ``amounts`` lists ``{agent, amount}`` items that the rules check one by one
(a multiple of the ``step``, within the money left); a move's ``to`` is a space of the
board (its id or its name) or ``home``. ``seen`` and ``left`` come from the camera only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from companion.games.actions import ActionSet, GameAction, Seat, Sender, Spec

Agent = Annotated[str, Spec("the agent")]


@dataclass(frozen=True, kw_only=True)
class BribeItem:
    """One line of a bribe: the agent and the amount added to it."""

    agent: Agent
    amount: Annotated[int, Spec("the amount", open=True)]


@dataclass(frozen=True, kw_only=True)
class Bribe(GameAction):
    """Add secret bribes to the seat's sheet (its turn; the turn passes)."""

    do: ClassVar[str] = "bribe"
    label: ClassVar[str] = "Bribe agents"
    seat: Seat
    amounts: Annotated[tuple[BribeItem, ...], Spec("the bribes", open=True)]


@dataclass(frozen=True, kw_only=True)
class Move(GameAction):
    """Announce moving an agent to a neighbouring space, with or without the suitcase."""

    do: ClassVar[str] = "move"
    label: ClassVar[str] = "Move an agent"
    seat: Seat
    agent: Agent
    to: Annotated[str, Spec("the space")]
    #: left out: without the suitcase (written back as it came)
    suitcase: Annotated[bool, Spec("taking the suitcase along")] | None = None

    @property
    def with_suitcase(self) -> bool:
        """Whether the agent takes the suitcase along."""
        return self.suitcase is True


@dataclass(frozen=True, kw_only=True)
class Eliminate(GameAction):
    """Announce that an agent eliminates another one on its space (costs the elimination money)."""

    do: ClassVar[str] = "eliminate"
    label: ClassVar[str] = "Eliminate an agent"
    seat: Seat
    agent: Agent
    target: Annotated[str, Spec("the agent to eliminate")]


@dataclass(frozen=True, kw_only=True)
class Protest(GameAction):
    """Protest against the announced move or elimination."""

    do: ClassVar[str] = "protest"
    label: ClassVar[str] = "Protest"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Concede(GameAction):
    """Give way in the open protest (the actor cancels the action, the protester lets it stand)."""

    do: ClassVar[str] = "concede"
    label: ClassVar[str] = "Concede"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Compare(GameAction):
    """Ask for the blind comparison of the open protest (made once both ask)."""

    do: ClassVar[str] = "compare"
    label: ClassVar[str] = "Compare the bribes"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Resolve(GameAction):
    """Confirm the announced action, end a follow-up window, or compare an open protest now."""

    do: ClassVar[str] = "resolve"
    label: ClassVar[str] = "Confirm"
    by: ClassVar[Sender] = "host"


@dataclass(frozen=True, kw_only=True)
class Seen(GameAction):
    """The camera saw an agent stand (or the suitcase) in a zone."""

    do: ClassVar[str] = "seen"
    label: ClassVar[str] = "The camera saw a stand"
    by: ClassVar[Sender] = "table"
    tag: Annotated[str, Spec("the stand")]
    zone: Annotated[str, Spec("the zone")]


@dataclass(frozen=True, kw_only=True)
class Left(GameAction):
    """The camera lost sight of an agent stand (or the suitcase)."""

    do: ClassVar[str] = "left"
    label: ClassVar[str] = "The camera lost a stand"
    by: ClassVar[Sender] = "table"
    tag: Annotated[str, Spec("the stand")]


ACTIONS = ActionSet("Casablanca", Bribe, Move, Eliminate, Protest, Concede, Compare, Resolve,
                    Seen, Left)

__all__ = ["ACTIONS", "Bribe", "BribeItem", "Compare", "Concede", "Eliminate", "Left", "Move",
           "Protest", "Resolve", "Seen"]
