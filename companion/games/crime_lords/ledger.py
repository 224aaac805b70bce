"""Crime Lords' shared look-ups for every action: the acting seat, a card's kind, whether
a card is in play, whose Crook a card is, and a card's stats the first time it is seen.
"""

from __future__ import annotations

from companion.games.base import IllegalAction, require
from companion.games.cards import catalog
from companion.games.crime_lords import vocab
from companion.games.crime_lords.actions import Stats
from companion.games.crime_lords.events import CardEntered, Event
from companion.games.crime_lords.legality import player_reason, require_ok
from companion.games.crime_lords.state import State, is_card_kind
from companion.games.emit import Emitter


def seat_of(state: State, seat: int | None) -> int:
    """``seat`` as a player still in the game; ``IllegalAction`` otherwise."""
    require(seat is not None, "Choose a player first.")
    assert seat is not None
    require_ok(player_reason(state, seat))
    require(not state.mobs[seat].out, f"{state.seats[seat]} is out of the game.")
    return seat


def in_play_reason(state: State, card: str) -> str | None:
    """A card already in play cannot come into play again (a misread tag?)."""
    return f"{state.label(card)} is already in play." if in_play(state, card) else None


def kind_of(card: str) -> str:
    """The catalog kind of a card id (mob, crook, racket, special)."""
    try:
        return catalog("crime_lords").by_id(card).kind
    except KeyError:
        raise IllegalAction("There is no such Crime Lords card.") from None


def in_play(state: State, card: str) -> bool:
    """Whether ``card`` is on the table: in a Mob, in the center or discarded."""
    return card in cards_in_play(state)


def cards_in_play(state: State) -> set[str]:
    """Every card on the table (in a Mob, in the center, discarded), in one pass: the
    moves list every card not in play, and a scan per card cost a setup's moves()
    tens of milliseconds."""
    out = {c for c, _ in state.center} | set(state.discard)
    for mob in state.mobs:
        out.update(c.card for c in mob.crooks)
        out.update(h.card for h in mob.rackets)
        out.update(mob.specials)
        if mob.mob_card is not None:
            out.add(mob.mob_card)
    return out


def slot(card: str) -> str:
    """A card's catalog name ("Crook 07"): how a card reads before its stats are known."""
    try:
        return catalog("crime_lords").by_id(card).label()
    except KeyError:
        return "this card"


NEEDED = {"crook": (("power", "Power"), ("resistance", "Resistance")),
          "racket": (("income", "income"), ("resistance", "Resistance"))}


def enter(b: Emitter[State, Event], card: str, kind: str, stats: Stats | None) -> None:
    """Register a Crook's or Racket's stats the first time the card comes into play."""
    if b.state.known(card) or not is_card_kind(kind):
        return
    shown = slot(card)
    held = state_stats(b.state, card)
    stats = stats if stats is not None else held
    require(stats is not None,
            f"{shown} comes into play for the first time: enter the stats printed on it.")
    assert stats is not None
    for key, label in NEEDED[kind]:
        require(getattr(stats, key) is not None,
                f"Enter the {label} printed on {shown} (read it off the card).")
    problem = stats_problem(stats)
    require(problem is None, f"{shown}: {problem}")
    b.emit(CardEntered(card, kind, stats.as_dict()))


def state_stats(state: State, card: str) -> Stats | None:
    """The stats the deck loaded into the game holds for ``card``, or None."""
    held = state.registered_stats(card)
    return Stats(**held) if held else None


def stats_problem(stats: Stats) -> str | None:
    """What is wrong with entered stats the rules compare (the district), or None."""
    if stats.district is not None:
        return vocab.district_problem(stats.district)
    return None


def own_crook(state: State, seat: int, card: str | None) -> str:
    """``card`` as a Crook of ``seat``'s Mob; ``IllegalAction`` otherwise."""
    require(card is not None, "Choose a Crook first.")
    assert card is not None
    require(
        state.mobs[seat].crook(card) is not None,
        f"{state.label(card)} is not a Crook in {state.seats[seat]}'s Mob.",
    )
    return card
