"""Illegal: which card may be played now, by whom, against whom (pure checks).

Every check returns ``None`` when the play is allowed or the sentence that tells the
player why not; ``decide`` raises it as ``IllegalAction`` and ``seat_view`` shows it
beside each card. German rules text wins (docs/rules/illegal.md lists every choice).
"""

from __future__ import annotations

from collections import Counter

from companion.games.illegal.deck import card, is_business, kind, label
from companion.games.illegal.state import CHOOSE, OVER, TURN, State
from companion.games.memo import ByIdentity

OPEN_FIRST = "Play a Market Open first: {what} needs your own open market"
OVER_NOW = "The hand is over: reveal your hand, then deal the next hand"
CHOOSE_FIRST = "Your turn is over: first choose which business you lose"


def seat_reason(state: State, seat: int) -> str | None:
    """Refuse a seat number past this table (the parser bounds it by the largest table)."""
    if seat < state.n:
        return None
    return f"There are only {state.n} players at this table: choose one of them"


def public_count(state: State, card_id: str, *, hand_of: int | None = None) -> int:
    """How many copies of ``card_id`` the table can see (all but ``hand_of``'s own shown)."""
    on_table, shown = _in_view(state)
    n = on_table.get(card_id, 0)
    for i, cards in enumerate(shown):
        if i != hand_of:
            n += cards.get(card_id, 0)
    return n


def _seen(state: State) -> tuple[dict[str, int], tuple[dict[str, int], ...]]:
    """The copies of each card on the table (discards, the gathered pile, businesses,
    hassles, open markets), and each seat's shown and revealed cards."""
    on_table = Counter(state.discards + state.gathered)
    shown: list[dict[str, int]] = []
    for s in state.seats:
        on_table.update(s.businesses)
        if s.hassle is not None:
            on_table[s.hassle] += 1
        if s.market_open:
            on_table["market_open"] += 1
        shown.append(Counter(s.shown + (s.revealed or ())))
    return on_table, tuple(shown)


#: the cards in view, counted once per state: ``public_count`` is asked for every card of
#: every move of every seat (most of the moves' time), and a state never changes
_in_view = ByIdentity(_seen)


def copies_left(state: State, card_id: str, seat: int = -1) -> int:
    """How many copies of ``card_id`` may still come out (be in ``seat``'s hand, be played,
    be shown): the deck's count less the copies the table sees (``seat``'s own shown aside).
    The one limit behind ``availability_reason`` and the phone's whole-hand choice."""
    return card(card_id).count - public_count(state, card_id, hand_of=seat)


def availability_reason(state: State, card_id: str, extra: int = 1, seat: int = -1) -> str | None:
    """Refuse a card of which more copies would be out than the deck has."""
    if extra > copies_left(state, card_id, seat):
        return (
            f"The deck has {card(card_id).count} {label(card_id)} and they are all on the "
            "table or in the discard pile already: check the card (a misread tag?)"
        )
    return None


def cards_reason(state: State, seat: int, cards: tuple[str, ...]) -> str | None:
    """Refuse ``cards`` (a hand laid open or revealed) that hold more copies of a card than
    may still come out (``seat``'s own shown cards aside), or None."""
    for c in dict.fromkeys(cards):
        reason = availability_reason(state, c, extra=cards.count(c), seat=seat)
        if reason is not None:
            return reason
    return None


#: What ``State.turn_done`` records that is not the turn's card: discards and the Bribe.
NOT_THE_CARD = ("single", "triple", "bribe")


def empty_handed(state: State, seat: int) -> bool:
    """``seat``'s turn came with no card in hand (the paranoia pass took the last one):
    only ending the turn is left (option ``empty_hand``)."""
    return state.phase == TURN and state.turn == seat and state.seats[seat].hand == 0 \
        and not state.turn_done


def turn_cards(state: State) -> tuple[list[str], bool]:
    """The kinds of the turn's card(s) played so far (not a legal business, not a Bribe,
    not the Magnum) and whether a legal business was played this turn."""
    main = [d for d in state.turn_done if d not in NOT_THE_CARD and d != "legal_business"]
    return main, "legal_business" in state.turn_done


def _one_card_reason(state: State, card_id: str) -> str | None:
    """ "Only one card a turn" with the German exceptions: a legal business (before or after
    the turn's card; option ``legal_extra``), the Magnum and the Bribe."""
    if card_id == "bribe" and state.options.bribe_extra:
        return None
    if "single" in state.turn_done or "triple" in state.turn_done:
        return (
            "You discarded this turn: a discard replaces the play; you may discard three "
            "identical cards or end your turn"
        )
    main, legal = turn_cards(state)
    k = kind(card_id)
    any_card = state.options.legal_extra == "any"
    if k == "legal_business":
        if legal:
            return "One legal business a turn: end your turn"
        if main and not any_card and main[0] != "illegal_business":
            return "A legal business comes extra only with an illegal business: end your turn"
        return None
    if main:
        return (
            "One card a turn (besides it only a legal business, a Bribe or the Magnum): "
            "end your turn"
        )
    if legal and not any_card and k != "illegal_business":
        return (
            "After a legal business you may add only an illegal business; otherwise end your turn"
        )
    return None


def turn_reason(state: State, seat: int, card_id: str) -> str | None:
    """Why ``seat`` may not play ``card_id`` at this moment of the turn, or None."""
    if state.phase == OVER:
        return OVER_NOW
    if state.seats[seat].hand < 1:
        return f"{state.name(seat)} holds no cards"
    if card_id == "magnum":
        return None  # any seat, any time
    if seat != state.turn:
        return f"It is {state.name(state.turn)}'s turn; out of turn only the Magnum may be played"
    if state.phase == CHOOSE:
        return CHOOSE_FIRST
    return _one_card_reason(state, card_id)


def _hassle_on(state: State, seat: int) -> str | None:
    return state.seats[seat].hassle


def hassle_targets(state: State, seat: int) -> tuple[int, ...]:
    """Opponents whose Market Open lies open and uncovered."""
    return tuple(
        i for i, s in enumerate(state.seats) if i != seat and s.market_open and s.hassle is None
    )


def solution_targets(state: State, card_id: str) -> tuple[int, ...]:
    """Seats whose hassle ``card_id`` (a solution or the Magnum) removes."""
    solves = card(card_id).extra.get("solves", "any")
    return tuple(
        i for i, s in enumerate(state.seats) if s.hassle is not None and solves in ("any", s.hassle)
    )


def takeover_victims(state: State, seat: int) -> tuple[int, ...]:
    """Opponents with at least one open business."""
    return tuple(i for i, s in enumerate(state.seats) if i != seat and s.businesses)


def relief_only(state: State, seat: int, card_id: str) -> bool:
    """Whether ``card_id`` is Relatives played only to clear ``seat``'s own hassle: no
    opponent has a business to take, and the German text still allows it ("kann also auch
    gespielt werden, wenn die eigene Geschäftseröffnung ... beeinträchtigt wird")."""
    return (
        card_id == "relatives"
        and state.seats[seat].hassle is not None
        and not takeover_victims(state, seat)
    )


def _business_reason(state: State, seat: int, card_id: str) -> str | None:
    s = state.seats[seat]
    if not s.market_open:
        return OPEN_FIRST.format(what="a business")
    h = s.hassle
    if h is None:
        return None
    if kind(card_id) == "illegal_business":
        return f"No illegal business while a {label(h)} lies on your Market Open"
    if "legal" in card(h).extra.get("blocks", ()):
        return f"No business at all while a {label(h)} lies on your Market Open"
    return None


def _takeover_reason(state: State, seat: int, card_id: str) -> str | None:
    s = state.seats[seat]
    if not s.market_open:
        return OPEN_FIRST.format(what=f"{label(card_id)}")
    if card_id == "hostile_takeover":
        if s.hassle is not None:
            return (
                f"No Hostile Takeover while a {label(s.hassle)} lies on your Market Open "
                "(Relatives may be played under a hassle)"
            )
        if not takeover_victims(state, seat):
            return "No opponent has an open business to take over"
        return None
    if not takeover_victims(state, seat) and not relief_only(state, seat, card_id):
        return "Relatives need an opponent's business to take or a hassle of yours to remove"
    return None


def card_reason(state: State, seat: int, card_id: str) -> str | None:
    """Why the seat's situation forbids ``card_id`` (ignoring whose turn it is), or None."""
    s = state.seats[seat]
    k = kind(card_id)
    if k == "market_open":
        return "You opened your market already: one Market Open per hand" if s.market_open else None
    if is_business(card_id):
        return _business_reason(state, seat, card_id)
    if k == "hassle":
        if not hassle_targets(state, seat):
            return (
                f"Nobody can take a {label(card_id)} now: a hassle needs an opponent whose "
                "Market Open lies uncovered"
            )
        return None
    if k == "solution":
        if not solution_targets(state, card_id):
            solves = card(card_id).extra.get("solves", "any")
            what = "hassle" if solves == "any" else label(str(solves))
            return f"No {what} lies on any Market Open for the {label(card_id)} to remove"
        if card_id == "bribe" and s.hand < 2:
            return "A Bribe also costs a business card from your hand, and you hold no other card"
        if (card_id == "bribe" and state.options.bribe_extra and s.hand < 3
                and state.phase == TURN and state.turn == seat):
            return (
                "A Bribe costs a business card, and you still need a card to play or discard "
                "this turn: you hold too few cards"
            )
        return None
    if k == "takeover":
        return _takeover_reason(state, seat, card_id)
    if k == "magnum":
        if not solution_targets(state, card_id) and state.last_takeover is None:
            return "No hassle lies anywhere and no takeover to stop: the Magnum has no target"
        return None
    if k == "day_of_accounting":
        if not s.market_open:
            return OPEN_FIRST.format(what="Day of Accounting")
        if s.hassle is not None:
            return f"No Day of Accounting while a {label(s.hassle)} lies on your Market Open"
        return None
    return None  # paranoia: always


def play_reason(state: State, seat: int, card_id: str) -> str | None:
    """Everything that forbids the play now except its targets, or None."""
    return (
        turn_reason(state, seat, card_id)
        or card_reason(state, seat, card_id)
        or availability_reason(state, card_id, seat=seat)
    )


def discard_reason(state: State, seat: int, cards: tuple[str, ...]) -> str | None:
    """Why ``seat`` may not discard ``cards`` (1 card, or 3 identical ones) now, or None."""
    if state.phase == OVER:
        return OVER_NOW
    if seat != state.turn:
        return f"It is {state.name(state.turn)}'s turn; only the active player discards"
    if state.phase == CHOOSE:
        return CHOOSE_FIRST
    if any(d not in NOT_THE_CARD for d in state.turn_done):
        return "You played a card this turn: a discard replaces the play, it does not follow it"
    if len(cards) not in (1, 3):
        return "Discard one card, or three identical cards"
    if state.seats[seat].hand < len(cards):
        return f"You hold only {state.seats[seat].hand} card(s)"
    if len(cards) == 1:
        if "single" in state.turn_done:
            return "Only one single card may be discarded a turn"
        if kind(cards[0]) == "paranoia":
            return (
                f"A {label(cards[0])} may not be discarded alone, only three identical "
                "paranoia cards together"
            )
    else:
        if len(set(cards)) != 1:
            return "Three cards discarded together must be identical (same title and picture)"
        if "triple" in state.turn_done:
            return "Three identical cards may be discarded once a turn"
    return availability_reason(state, cards[0], extra=len(cards), seat=seat)


def open_hand_reason(state: State, seat: int) -> str | None:
    """Why ``seat`` may not lay (part of) its hand open now (Tax Inspection), or None."""
    if state.seats[seat].hassle != "tax_inspection":
        return "Only a seat under Tax Inspection lays its hand open"
    if state.phase == OVER:
        return "The hand is over: reveal your hand instead"
    return None


def reveal_reason(state: State, seat: int) -> str | None:
    """Why ``seat`` may not reveal (more of) its hand now, or None."""
    s = state.seats[seat]
    if state.phase != OVER:
        return "Hands are revealed only after the hand ended"
    if not (s.revealed is None or len(s.revealed) < s.hand or s.hand == 0):
        return f"{s.name} revealed their hand already"
    return None


def revealed_reason(state: State, seat: int, cards: tuple[str, ...], *, whole: bool) -> str | None:
    """Why ``seat`` may not reveal ``cards`` now (its ``whole`` hand in one go, or the cards
    revealed so far with one more), or None: the one check of both ways to reveal."""
    s = state.seats[seat]
    fits = len(cards) == s.hand if whole else len(cards) <= s.hand
    return (
        reveal_reason(state, seat)
        or (None if fits else f"{s.name} holds {s.hand} cards; reveal exactly {s.hand}")
        or cards_reason(state, seat, cards)
    )


def loss_choices(state: State, seat: int) -> tuple[str, ...]:
    """The distinct businesses the seat's Raid / Protection Money may take now."""
    s = state.seats[seat]
    take = card(s.hassle).extra.get("loses") if s.hassle else None
    if take is None:
        return ()
    eligible = [b for b in s.businesses if take == "any" or kind(b) == "illegal_business"]
    return tuple(dict.fromkeys(eligible))
