"""Illegal: what each seat (or the host) may do now (``moves``), and what the table waits
for (``waiting``).

The engine never knows a hand's cards, only its size: a seat is offered every card kind
it may play now (a kind it may hold), with its legal targets, takes and costs; kinds
that may not be played now are listed with why. Each move is judged on the state
``decide`` would judge it in (after the open turn ends when another seat acts, a
gathered discard is booked, a takeover stood).
"""

from __future__ import annotations

from companion.games.base import IllegalAction
from companion.games.frozen import replace
from companion.games.illegal.actions import Discard, Lose, Play, Trade
from companion.games.illegal.decide import (
    cancel_events,
    deal_reason,
    decide,
    prepare,
    trade_reason,
)
from companion.games.illegal.deck import card, card_ids, is_business, kind, label, value
from companion.games.illegal.legality import (
    availability_reason,
    copies_left,
    discard_reason,
    hassle_targets,
    loss_choices,
    open_hand_reason,
    play_reason,
    relief_only,
    reveal_reason,
    solution_targets,
    takeover_victims,
)
from companion.games.illegal.state import CHOOSE, MORE, OVER, State
from companion.games.illegal.views import status
from companion.games.moves import Choice, Move, Param, Waiting
from companion.games.words import plurals

WHOSE_HASSLE = "Whose hassle does it remove?"
WHICH_COST = "Which business card from your hand does it cost?"

def _name(card_id: str) -> str:
    c = card(card_id)
    return f"{c.label('en')} ({c.value:,} €)".replace(",", " ") if c.value else c.label("en")


def _cards(ids: tuple[str, ...] | list[str]) -> tuple[Choice, ...]:
    return tuple(Choice(c, _name(c)) for c in ids)


def _seats(state: State, seats: tuple[int, ...]) -> tuple[Choice, ...]:
    return tuple(Choice(i, state.name(i)) for i in seats)


def _judged(state: State, seat: int, do: str, magnum: bool = False) -> State | str:
    """The state ``decide`` judges ``seat``'s action in, or the refusal that comes first."""
    try:
        return prepare(state, seat, kind=do, magnum=magnum).state
    except IllegalAction as exc:
        return exc.reason


def moves(state: State, seat: int | None) -> list[Move]:
    """What ``seat`` (None: the host) may do now (see the module doc)."""
    if seat is None:
        return _host(state)
    if not 0 <= seat < state.n:
        return []
    if state.phase == OVER:
        return _reveal(state, seat)
    out = [*_plays(state, seat), *_discards(state, seat), *_turn_end(state, seat),
           *_trades(state, seat), *_open_hand(state, seat)]
    return [replace(m, why=plurals(m.why)) if "(s)" in m.why else m for m in out]


def _after(cid: str) -> str:
    """What a card laid down alone still needs: its target, its cost or its victim."""
    if cid == "bribe":
        return "whose hassle it removes and its cost"
    return {"hassle": "against whom", "solution": "whose hassle it removes",
            "paranoia": "which business you lose",
            "takeover": "from whom and what it takes"}.get(kind(cid), "the rest")


def _open_hand(state: State, seat: int) -> list[Move]:
    """Under Tax Inspection: lay the whole hand open in one go, or one card at a time."""
    s = state.seats[seat]
    if open_hand_reason(state, seat) is not None or len(s.shown) >= s.hand:
        return []
    kinds = [c for c in card_ids()
             if availability_reason(state, c, extra=s.shown.count(c) + 1, seat=seat) is None]
    left = s.hand - len(s.shown)
    out = []
    if not s.shown and state.options.show is None:  # (format 1's show could be a part)
        out.append(_whole_hand(state, seat, "show", f"Lay your whole hand open ({_count(s.hand)})"))
    out.append(Move("show_card", f"Lay a card of your hand open ({left} to go)", {"seat": seat},
                    (Param("card", "Which card?", choices=_cards(kinds)),), group="open_hand"))
    return out


def _count(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


def _whole_hand(state: State, seat: int, do: str, title: str) -> Move:
    """The whole hand in one go (``show``, ``reveal``): a card chosen once per copy held,
    each at most as often as the deck still has it (``copies_left``, the limit the engine's
    check of the hand applies), then one tap sends them all."""
    n = state.seats[seat].hand
    room = {c: copies_left(state, c, seat) for c in card_ids()}
    choices = tuple(Choice(c, _name(c), most=k) for c, k in room.items() if k > 0)
    return Move(do, title, {"seat": seat}, (Param(
        "hand", f"Tap each of your {_count(n)} (a card twice for two copies)", "some",
        choices=choices, fewest=n, most=n, repeat=True),))


# --- the host ----------------------------------------------------------------------------


def _host(state: State) -> list[Move]:
    out = []
    if state.options.match_to > 0 and state.phase == OVER:
        why = deal_reason(state)
        out.append(Move("deal", "Deal the next hand", allowed=why is None, why=why or ""))
    if cancel_events(state, None):
        out.append(Move("cancel", "Call off every unfinished move", group="cancel"))
        for i, s in enumerate(state.seats):
            if s.pending:
                out.append(Move("cancel", f"Call off {s.name}'s {label(s.pending)}",
                                {"seat": i}, group="cancel"))
    return out


# --- after the hand ------------------------------------------------------------------------


def _reveal(state: State, seat: int) -> list[Move]:
    s = state.seats[seat]
    why = reveal_reason(state, seat)
    if why is not None or state.scores is not None:
        return []
    if s.hand == 0:
        return [Move("reveal", "Reveal your empty hand", {"seat": seat, "hand": []})]
    shown = s.revealed or ()
    kinds = [c for c in card_ids()
             if availability_reason(state, c, extra=shown.count(c) + 1, seat=seat) is None]
    left = s.hand - len(shown)
    out = []
    if not shown and s.shown and len(s.shown) == s.hand:  # laid open (Tax Inspection): known
        out.append(Move("reveal", f"Reveal the {_count(s.hand)} you laid open",
                        {"seat": seat, "hand": list(s.shown)}))
    if not shown:  # the whole hand in one go; card by card stays possible
        out.append(_whole_hand(state, seat, "reveal", f"Reveal your whole hand ({_count(s.hand)})"))
    out.append(Move("reveal_card", f"Reveal one card at a time ({left} to go)", {"seat": seat},
                    (Param("card", "Which card?", choices=_cards(kinds)),), group="reveal"))
    return out


# --- plays -------------------------------------------------------------------------------


def _plays(state: State, seat: int) -> list[Move]:
    judged = _judged(state, seat, Play.do)
    magnum = _judged(state, seat, Play.do, magnum=True)
    out: list[Move] = []
    for cid in card_ids():
        st = magnum if cid == "magnum" else judged
        if isinstance(st, str):
            out.append(_not_now(seat, cid, st))
            continue
        why = play_reason(st, seat, cid)
        if why is not None:
            out.append(_not_now(seat, cid, why))
            continue
        out += _play_forms(st, seat, cid)
    return out


def _not_now(seat: int, cid: str, why: str) -> Move:
    return Move("play", f"Play {label(cid)}", {"seat": seat, "card": cid}, group="play",
                allowed=False, why=why)


def _play_forms(st: State, seat: int, cid: str) -> list[Move]:
    """Every way ``seat`` may play ``cid`` now: the complete play(s), the completion of a
    card shown before, and the card alone (its target or cost chosen after)."""
    fixed = {"seat": seat, "card": cid}
    name = label(cid)
    s = st.seats[seat]
    done = _completion(st, seat, cid) if s.pending == cid else None
    first = [done] if done is not None else []
    full = _full(st, seat, cid)
    if all(not m.params and set(m.fixed) == set(fixed) for m in full):
        return [*first, *full]
    bare = Move("play", "It is my Magnum" if st.unclaimed and cid == "magnum"
                else f"Play {name}, decide {_after(cid)} later", fixed, group="play")
    return [*first, *full, bare]


def _full(st: State, seat: int, cid: str) -> list[Move]:
    fixed = {"seat": seat, "card": cid}
    name, k = label(cid), kind(cid)
    if k == "hassle":
        return [Move("play", f"Play {name}", fixed, (
            Param("target", "Against whom?", choices=_seats(st, hassle_targets(st, seat))),),
            group="play")]
    if k == "solution":
        target = Param("target", WHOSE_HASSLE,
                       choices=_seats(st, solution_targets(st, cid)))
        if cid != "bribe":
            return [Move("play", f"Play {name}", fixed, (target,), group="play")]
        costs = [c for c in card_ids()
                 if is_business(c) and availability_reason(st, c, seat=seat) is None]
        return [Move("play", f"Play {name}", fixed, (target, Param(
            "discard", WHICH_COST,
            choices=_cards(costs))), group="play")]
    if k == "paranoia":
        choices = _paranoia_choices(st, seat, cid)
        if not choices:
            return [Move("play", f"Play {name}", fixed, group="play")]
        return [Move("play", f"Play {name}", fixed, (
            Param("lose", "Which business do you lose?", choices=_cards(choices)),),
            group="play")]
    if k == "takeover" and relief_only(st, seat, cid):
        hassle = label(st.seats[seat].hassle or "")
        return [Move("play", f"Play {name}: remove your {hassle} (nothing to take)", fixed,
                     group="play")]
    if k == "takeover":
        return [Move("play", f"Play {name}: take from {st.name(v)}", {**fixed, "target": v},
                     (Param("take", "Which business?", choices=_cards(
                         tuple(dict.fromkeys(st.seats[v].businesses)))),), group="play")
                for v in takeover_victims(st, seat)]
    if k == "magnum":
        return _magnum(st, seat)
    return [Move("play", f"Play {name}", fixed, group="play")]


def _paranoia_choices(st: State, seat: int, cid: str) -> tuple[str, ...]:
    own = st.seats[seat].businesses
    rule = card(cid).extra.get("loses")
    if not own or rule == "all":
        return ()
    choices = tuple(dict.fromkeys(own))
    if rule == "highest":
        top = max(value(b) for b in own)
        choices = tuple(b for b in choices if value(b) == top)
    return choices


def _magnum(st: State, seat: int) -> list[Move]:
    fixed = {"seat": seat, "card": "magnum"}
    out = []
    targets = solution_targets(st, "magnum")
    if targets:
        out.append(Move("play", "Play the Magnum on a hassle", fixed, (
            Param("target", WHOSE_HASSLE, choices=_seats(st, targets)),),
            group="play"))
    last = st.last_takeover
    if last is not None:
        out.append(Move("play", f"Play the Magnum: stop {st.name(last.taker)}'s takeover of "
                        f"{label(last.card)}", {**fixed, "cancel": True}, group="play"))
    return out


def _completion(st: State, seat: int, cid: str) -> Move | None:
    """The choice a card shown before still needs (its other keys are kept)."""
    s = st.seats[seat]
    given = dict(s.pending_given)
    fixed = {"seat": seat, "card": cid}
    name = label(cid)
    needs = s.pending_needs
    if needs == "target":
        if kind(cid) == "takeover":
            seats = takeover_victims(st, seat)
            if "take" in given:
                seats = tuple(v for v in seats if given["take"] in st.seats[v].businesses)
        elif kind(cid) == "hassle":
            seats = hassle_targets(st, seat)
        else:
            seats = solution_targets(st, cid)
        if kind(cid) == "takeover" and "take" not in given:
            return None  # the complete takeovers say whom and what
        return Move("play", f"Complete {name}", fixed, (
            Param("target", "Whom?", choices=_seats(st, seats)),), group="play")
    if needs == "take" and isinstance(given.get("target"), int):
        victim = st.seats[int(given["target"])]
        return Move("play", f"Complete {name}", fixed, (Param("take", "Which business?",
                    choices=_cards(tuple(dict.fromkeys(victim.businesses)))),), group="play")
    if needs == "discard":
        costs = [c for c in card_ids()
                 if is_business(c) and availability_reason(st, c, seat=seat) is None]
        return Move("play", f"Complete {name}", fixed, (Param(
            "discard", WHICH_COST,
            choices=_cards(costs)),), group="play")
    if needs == "lose":
        return Move("play", f"Complete {name}", fixed, (Param(
            "lose", "Which business do you lose?",
            choices=_cards(_paranoia_choices(st, seat, cid))),), group="play")
    return None


# --- discards, the end of the turn, trades ------------------------------------------------


def _discards(state: State, seat: int) -> list[Move]:
    st = _judged(state, seat, Discard.do)
    out = []
    for size, title in ((1, "Discard a card"), (3, "Discard three identical cards")):
        if isinstance(st, str):
            out.append(Move("discard", title, {"seat": seat}, group="discard", allowed=False,
                            why=st))
            continue
        ok = [c for c in card_ids() if discard_reason(st, seat, (c,) * size) is None]
        if ok:
            out.append(Move("discard", title, {"seat": seat}, (Param(
                "cards", "Which card?" if size == 1 else "Three of which card?",
                choices=tuple(Choice([c] * size, _name(c)) for c in ok)),), group="discard"))
        else:
            why = discard_reason(st, seat, ("tropical_fish",) * size) or "Not now"
            out.append(Move("discard", title, {"seat": seat}, group="discard", allowed=False,
                            why=why))
    return out


def _accepted(state: State, action: dict[str, object]) -> str | None:
    try:
        decide(state, action, 0.0)
    except IllegalAction as exc:
        return exc.reason
    return None


def _turn_end(state: State, seat: int) -> list[Move]:
    end = {"do": "end_turn", "seat": seat}
    why = _accepted(state, end)
    out = [Move("end_turn", "End your turn", {"seat": seat}, allowed=why is None,
                why=why or "")]
    judged = _judged(state, seat, Lose.do)
    if isinstance(judged, str):
        return out
    candidates = set(loss_choices(judged, seat))
    if judged.awaiting is not None:
        candidates |= set(judged.awaiting.choices)
    if judged.forced_loss is not None and judged.forced_loss[0] == seat:
        candidates.add(judged.forced_loss[1])
    ok = [c for c in card_ids() if c in candidates
          and _accepted(state, {"do": "lose", "seat": seat, "card": c}) is None]
    if ok:
        title = (Lose.label if state.phase == CHOOSE
                 else f"End your turn and {Lose.label[0].lower()}{Lose.label[1:]}"
                 if state.phase == MORE and state.turn == seat
                 else "Confirm the business you lost")
        out.append(Move("lose", title, {"seat": seat},
                        (Param("card", "Which business?", choices=_cards(ok)),)))
    return out


def _trades(state: State, seat: int) -> list[Move]:
    st = _judged(state, seat, Trade.do)
    if isinstance(st, str):
        return [Move("trade", "Trade cards", {"seat": seat}, group="trade", allowed=False,
                     why=st)]
    me = st.seats[seat]
    out = []
    for other in range(st.n):
        if other == seat:
            continue
        them = st.seats[other]
        for give in range(1, me.hand + 1):
            got = [g for g in range(0, them.hand + 1)
                   if trade_reason(st, seat, other, give, g) is None]
            if got:
                out.append(Move("trade", f"Give {them.name} {give} card{'s' * (give > 1)}",
                                {"seat": seat, "with": other, "give": give}, (Param(
                                    "get", "How many cards do you get back?",
                                    choices=tuple(Choice(g, str(g)) for g in got)),),
                                group="trade"))
    if not out:
        why = trade_reason(st, seat, (seat + 1) % st.n, 1, 0) or "No trade is possible now"
        out.append(Move("trade", "Trade cards", {"seat": seat}, group="trade", allowed=False,
                        why=why))
    return out


# --- what the table waits for ---------------------------------------------------------------


def waiting(state: State) -> Waiting:
    """Who must act now, on what, and why (one sentence, players by name)."""
    if state.phase == OVER:
        return _waiting_after(state)
    if state.phase == CHOOSE and state.awaiting is not None:
        a = state.awaiting
        return _with_open_hands(state, Waiting(
            (a.seat,), "loss", f"{state.name(a.seat)} chooses the business the "
            f"{label(a.because)} takes."))
    if state.unclaimed:
        seats = tuple(i for i, s in enumerate(state.seats) if s.hand > 0)
        return Waiting(seats, "claim", "A Magnum was shown: whose is it? Its player claims it.",
                       asks={i: "Is the Magnum yours? Claim it." for i in seats})
    if len(state.gathered) == 2:
        who, what = state.name(state.turn), label(state.gathered[0])
        return Waiting((state.turn,), "camera", f"{who} is discarding two {what}: a third "
                       "one makes a triple, or the host calls the discard off.", host=True)
    turn: list[int] = [state.turn]
    why = status(state) + "."
    asks: dict[int, str] = {}
    for i, s in enumerate(state.seats):
        if s.pending and i != state.turn:  # a Magnum out of turn that still needs its target
            turn.append(i)
            why += f" {s.name} completes the {label(s.pending)}."
            asks[i] = f"Complete your {label(s.pending)}."
    on = "complete" if state.seats[state.turn].pending else "turn"
    return _with_open_hands(state, Waiting(tuple(turn), on, why, asks=asks))


def _with_open_hands(state: State, waiting: Waiting) -> Waiting:
    """``waiting`` and the seats a Tax Inspection asks to lay their hand open."""
    seats, why, asks = list(waiting.seats), waiting.why, dict(waiting.asks)
    for i, s in enumerate(state.seats):
        if s.hassle == "tax_inspection" and len(s.shown) < s.hand and i not in seats:
            seats.append(i)
            why += f" {s.name} lays their hand open (Tax Inspection)."
            asks[i] = "Lay your hand open: the Tax Inspection asks for it."
    return replace(waiting, seats=tuple(seats), why=why, asks=asks)


def _waiting_after(state: State) -> Waiting:
    if state.scores is None:
        seats = tuple(i for i, s in enumerate(state.seats)
                      if s.revealed is None or len(s.revealed) < s.hand)
        names = ", ".join(state.name(i) for i in seats)
        asks = {i: (f"Reveal your {_count(state.seats[i].hand)}." if state.seats[i].hand
                    else "You hold no cards: one tap reveals your empty hand.") for i in seats}
        return Waiting(seats, "reveal", f"Hand {state.hand_no} is over: every player shows "
                       f"their hand for the accounting ({names} still to show).", asks=asks)
    if state.match_over:
        return Waiting((), "over", status(state) + ".")
    return Waiting((), "deal", status(state) + ".", host=True)
