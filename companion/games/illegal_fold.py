"""Illegal: folding events with a human sentence each, and the ``Flow`` that decide uses.

``apply_event`` is the engine's ``apply``: it folds one event and keeps the sentence
that describes it in ``state.notes`` (the dashboard's short log). ``Flow`` emits events
one by one, folding each, so a later step sees an earlier step's effect.
"""

from __future__ import annotations

from typing import Any

from companion.games import illegal_model as m
from companion.games.illegal_model import State, label

_WHY_ENDED = {
    "day_of_accounting": "{name} calls the Day of Accounting: the hand ends",
    "draw_pile_empty": "{name} cannot draw: the draw pile is empty and the hand ends",
    "hand_empty": "{name} has no cards left: the hand ends",
}


def euros(amount: int) -> str:
    return f"{amount:,} €".replace(",", ".")


def describe(state: State, e: Any) -> str | None:
    """One sentence for the table about event ``e`` (about to be folded into ``state``)."""
    n = state.name
    if isinstance(e, m.HandDealt):
        return f"Hand {e.hand_no}: {n(e.dealer)} deals, {n(e.first)} starts"
    if isinstance(e, m.PlayPending):
        what = {
            "target": "a target",
            "take": "the business to take",
            "discard": "the business card it costs",
            "lose": "the business to lose",
        }
        return f"{n(e.seat)} shows {label(e.card)}: choose {what.get(e.needs, e.needs)}"
    if isinstance(e, m.CardPlayed):
        on = f" on {n(e.target)}" if e.target is not None and m.kind(e.card) != "takeover" else ""
        late = " (out of turn)" if e.out_of_turn else ""
        return f"{n(e.seat)} plays {label(e.card)}{on}{late}"
    if isinstance(e, m.CardsDiscarded):
        cards = ", ".join(label(c) for c in e.cards)
        return f"{n(e.seat)} discards {cards}" + (" for the Bribe" if e.why == "bribe" else "")
    if isinstance(e, m.HassleRemoved):
        why = "nothing left to take" if e.by == "empty" else label(e.by)
        return f"{label(e.card)} leaves {n(e.seat)}'s Market Open ({why})"
    if isinstance(e, m.BusinessLost):
        how = "" if e.chosen else " (the cheapest; nobody chose)"
        return f"{n(e.seat)} loses {label(e.card)} to {label(e.why)}{how}"
    if isinstance(e, m.BusinessTaken):
        return f"{n(e.seat)} takes {label(e.card)} from {n(e.victim)} ({label(e.via)})"
    if isinstance(e, m.TakeoverCancelled):
        return (
            f"{n(e.seat)}'s Magnum stops the takeover: {label(e.card)} goes back to {n(e.victim)}"
        )
    return _describe_turn(state, e)


def _describe_turn(state: State, e: Any) -> str | None:
    n = state.name
    if isinstance(e, m.SkipsAdded):
        return f"{n(e.seat)} sits out {e.turns} turn(s)" if e.turns else None
    if isinstance(e, m.CardsPassed):
        return "Everyone passes one card face down to the left"
    if isinstance(e, m.LossRequested):
        return f"{n(e.seat)} must choose a business for the {label(e.hassle)}"
    if isinstance(e, m.TurnSkipped):
        return f"{n(e.seat)} sits this turn out"
    if isinstance(e, m.TurnStarted):
        return f"{n(e.seat)}'s turn"
    if isinstance(e, m.HandEnded):
        return _WHY_ENDED.get(e.why, "The hand ends").format(name=n(e.seat))
    if isinstance(e, m.HandScored):
        parts = ", ".join(f"{n(i)} {euros(v)}" for i, v in enumerate(e.scores))
        return f"Accounting: {parts}"
    return None  # draws, turn ends, reveals: visible in the tableau itself


def apply_event(state: State, event: Any) -> State:
    """Fold one event (the engine's ``apply``)."""
    return m.apply(state, event, describe)


class Flow:
    """Events emitted so far and the state they lead to."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Any] = []

    def emit(self, event: Any) -> None:
        self.state = apply_event(self.state, event)
        self.events.append(event)
