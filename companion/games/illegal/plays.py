"""Illegal: one card played — its targets checked, its effects emitted as events.

``play`` returns False when the play is still missing a target or choice: it then
emits ``PlayPending`` and nothing else, and the same seat playing the same card with
the missing keys (``target``, ``take``, ``discard``, ``lose``, ``cancel``) completes it.
A key is filled in by the engine only when exactly one value is possible.
"""

from __future__ import annotations

from typing import Any, cast

from companion.games.base import IllegalAction, require
from companion.games.frozen import replace
from companion.games.illegal.actions import Play
from companion.games.illegal.deck import card, is_business, kind, label, value
from companion.games.illegal.events import (
    BusinessLost,
    BusinessTaken,
    CardPlayed,
    CardsDiscarded,
    CardsPassed,
    HandEnded,
    HassleRemoved,
    Needs,
    PlayPending,
    SkipsAdded,
    TakeoverCancelled,
)
from companion.games.illegal.fold import Emit
from companion.games.illegal.legality import (
    availability_reason,
    hassle_targets,
    loss_choices,
    play_reason,
    relief_only,
    seat_reason,
    solution_targets,
    takeover_victims,
)
from companion.games.illegal.state import Via


def play(f: Emit, action: Play) -> bool:
    """Check and play ``action.card`` for ``action.seat``; False when it is pending (see
    module doc)."""
    seat, card_id = action.seat, action.card
    reason = play_reason(f.state, seat, card_id)
    require(reason is None, reason or "")
    k = kind(card_id)
    if k == "hassle":
        return _hassle(f, seat, card_id, action)
    if k == "solution":
        return _solution(f, seat, card_id, action)
    if k == "paranoia":
        return _paranoia(f, seat, card_id, action)
    if k == "takeover":
        return _takeover(f, seat, card_id, action)
    if k == "magnum":
        return _magnum(f, seat, action)
    f.emit(CardPlayed(seat, card_id))
    if k == "day_of_accounting":
        f.emit(HandEnded("day_of_accounting", seat))
    return True


def lift_if_empty(f: Emit, seat: int, *, at_end_of_turn: bool = False) -> None:
    """Discard a Raid / Protection Money that has nothing left to take.

    At the end of its victim's turn always; at any other moment only with the option
    ``hassle_leaves: "at_once"``.
    """
    hassle = f.state.seats[seat].hassle
    if hassle is None or not card(hassle).extra.get("loses"):
        return
    if not at_end_of_turn and f.state.options.hassle_leaves != "at_once":
        return
    if not loss_choices(f.state, seat):
        f.emit(HassleRemoved(seat, hassle, "empty"))


#: the keys of a play that a pending play keeps until it completes
GIVEN_KEYS = ("target", "take", "discard", "lose")


def _pend(f: Emit, seat: int, card_id: str, needs: Needs, action: Play | None = None) -> bool:
    """Wait for ``needs``; the keys ``action`` already gave are kept for the completion."""
    given = tuple(
        (k, getattr(action, k))
        for k in GIVEN_KEYS
        if action is not None and getattr(action, k) is not None
    )
    f.emit(PlayPending(seat, card_id, needs, given))
    return False


def with_given(action: Play, given: tuple[tuple[str, int | str], ...]) -> Play:
    """``action`` completed by the keys a pending play was given before (the new ones win)."""
    missing: dict[str, Any] = {
        k: v for k, v in given if k in GIVEN_KEYS and getattr(action, k) is None
    }
    return replace(action, **missing) if missing else action


def _bribe_cost(f: Emit, seat: int, action: Play) -> str | None:
    """The business card a Bribe costs (checked), or None while it is not given."""
    if action.discard is None:
        return None
    discard = action.discard
    require(
        is_business(discard),
        f"A Bribe costs a business card (legal or illegal) from your hand; "
        f"{label(discard)} is not one: show a business card",
    )
    reason = availability_reason(f.state, discard, seat=seat)
    require(reason is None, reason or "")
    return discard


def _target(f: Emit, action: Play, choices: tuple[int, ...]) -> int | None:
    """The play's target seat, or the only possible one, or None (ask)."""
    if action.target is not None:
        reason = seat_reason(f.state, action.target)
        require(reason is None, reason or "")
        return action.target
    return choices[0] if len(choices) == 1 else None


def _hassle(f: Emit, seat: int, card_id: str, action: Play) -> bool:
    target = _target(f, action, hassle_targets(f.state, seat))
    if target is None:
        return _pend(f, seat, card_id, "target")
    victim = f.state.seats[target]
    require(target != seat, "A hassle is played against an opponent, not yourself")
    require(victim.market_open, f"{victim.name} has no Market Open: a hassle needs an open market")
    if victim.hassle is not None:
        raise IllegalAction(
            f"{victim.name}'s Market Open already carries a {label(victim.hassle)}: "
            "one hassle at a time"
        )
    f.emit(CardPlayed(seat, card_id, target))
    lift_if_empty(f, target)
    return True


def _solution(f: Emit, seat: int, card_id: str, action: Play) -> bool:
    target = _target(f, action, solution_targets(f.state, card_id))
    # the cost is checked as soon as it is shown (format 1, which forgot it: once the target
    # is known)
    early = f.state.options.pending_keys is None or target is not None
    discard = _bribe_cost(f, seat, action) if card_id == "bribe" and early else None
    if target is None:
        return _pend(f, seat, card_id, "target", action)
    hassle = f.state.seats[target].hassle
    if target not in solution_targets(f.state, card_id):
        what = f"a {label(hassle)}" if hassle else "no hassle"
        raise IllegalAction(
            f"{f.state.name(target)}'s Market Open carries {what}; "
            f"the {label(card_id)} cannot remove it"
        )
    assert hassle is not None
    if card_id == "bribe" and discard is None:
        return _pend(f, seat, card_id, "discard", replace(action, target=target))
    f.emit(CardPlayed(seat, card_id, target))
    f.emit(HassleRemoved(target, hassle, card_id))
    if discard is not None:
        f.emit(CardsDiscarded(seat, (discard,), "bribe"))
    return True


def _paranoia_losses(f: Emit, seat: int, card_id: str, action: Play) -> tuple[str, ...] | None:
    """The businesses ``card_id`` costs its player, or None when the choice is missing."""
    own = f.state.seats[seat].businesses
    rule = card(card_id).extra.get("loses")
    if not own:
        return ()
    if rule == "all":
        return own
    choices = tuple(dict.fromkeys(own))
    if rule == "highest":
        top = max(value(b) for b in own)
        choices = tuple(b for b in choices if value(b) == top)
    if action.lose is None:  # the engine picks only when one business is possible
        if rule == "highest" and f.state.options.highest_tie == "last":
            return (next(b for b in reversed(own) if value(b) == top),)  # format 1
        return (choices[0],) if len(choices) == 1 else None
    lose = action.lose
    require(
        lose in choices,
        f"The {label(card_id)} costs one of {', '.join(label(c) for c in choices)}; "
        f"not {label(lose)}",
    )
    return (lose,)


def _paranoia(f: Emit, seat: int, card_id: str, action: Play) -> bool:
    losses = _paranoia_losses(f, seat, card_id, action)
    if losses is None:
        return _pend(f, seat, card_id, "lose", action)
    f.emit(CardPlayed(seat, card_id))
    for b in losses:
        f.emit(BusinessLost(seat, b, card_id))
    f.emit(SkipsAdded(seat, int(card(card_id).extra.get("skips", 0))))
    lift_if_empty(f, seat)
    f.emit(CardsPassed(seat))
    return True


def _takeover(f: Emit, seat: int, card_id: str, action: Play) -> bool:
    victims = takeover_victims(f.state, seat)
    wanted = action.take
    if wanted is not None and f.state.options.take_target is None:
        # the business shown names its owner when only one has it (format 1: it did not)
        victims = tuple(v for v in victims if wanted in f.state.seats[v].businesses) or victims
    target = _target(f, action, victims)
    if target is None and not relief_only(f.state, seat, card_id):
        return _pend(f, seat, card_id, "target", action)
    take = None
    if target is not None:
        require(target != seat, "Take a business from an opponent, not from yourself")
        theirs = tuple(dict.fromkeys(f.state.seats[target].businesses))
        require(bool(theirs), f"{f.state.name(target)} has no open business to take")
        if wanted is not None:
            take = wanted
        elif len(theirs) == 1:
            take = theirs[0]
        else:
            return _pend(f, seat, card_id, "take", replace(action, target=target))
        require(take in theirs, f"{f.state.name(target)} has no open {label(take)} to take")
    own_hassle = f.state.seats[seat].hassle if card_id == "relatives" else None
    f.emit(CardPlayed(seat, card_id, target))
    if own_hassle is not None:
        f.emit(HassleRemoved(seat, own_hassle, card_id))
    if target is not None and take is not None:
        f.emit(BusinessTaken(seat, target, take, cast(Via, card_id), own_hassle))
        lift_if_empty(f, target)
    return True


def _magnum(f: Emit, seat: int, action: Play) -> bool:
    st = f.state
    out_of_turn = seat != st.turn
    if action.cancel is True:
        last = st.last_takeover
        require(
            last is not None,
            "There is no takeover to stop: a Magnum stops a takeover right after it is played",
        )
        assert last is not None
        restore = last.hassle if st.options.magnum_restores_hassle else None
        f.emit(CardPlayed(seat, "magnum", last.taker, out_of_turn))
        f.emit(TakeoverCancelled(seat, last.taker, last.victim, last.card, restore))
    else:
        targets = solution_targets(st, "magnum")
        if action.target is None and (st.last_takeover is not None or len(targets) != 1):
            return _pend(f, seat, "magnum", "target")
        target = _target(f, action, targets)
        assert target is not None
        hassle = st.seats[target].hassle
        require(
            hassle is not None,
            f"{st.name(target)}'s Market Open carries no hassle for the Magnum to remove",
        )
        assert hassle is not None
        f.emit(CardPlayed(seat, "magnum", target, out_of_turn))
        f.emit(HassleRemoved(target, hassle, "magnum"))
    on_turn = f.state.options.magnum_last_card is None  # format 1: that turn went on
    if f.state.seats[seat].hand == 0 and (out_of_turn or on_turn):
        f.emit(HandEnded("hand_empty", seat))  # out of turn, or on a turn it cannot finish
    return True
