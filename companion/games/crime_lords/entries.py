"""Crime Lords: the moves whose values are typed or entered, not picked from the table.

A card's printed stats (``stats``, and the ``stats`` of a draw, a sale, a card turned up
or a Mob card the first time the card comes into play) as one ``fields`` parameter made
of the ``Stats`` fields that kind of card has (the ones the rules need first; bounds
from each field's ``Spec``); an ability's effect (``modify`` during an attack, ``adjust``
on one's turn or in an attack one is part of) with a number and its reason as text; and
the setup the host enters (Mobs, auction sales, the center, the start). ``moves.py``
assembles them with the rest; ``decide`` stays the judge.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from companion.games.actions import fields_of
from companion.games.cards import catalog, catalog_document
from companion.games.crime_lords.actions import Adjust, Modify, Stats
from companion.games.crime_lords.ledger import NEEDED, in_play
from companion.games.crime_lords.mob import LEAVE_AT
from companion.games.crime_lords.setup import auction_limit, auctioned, start_problem
from companion.games.crime_lords.state import MAX_POWER, State
from companion.games.moves import Choice, Move, Param


def card_choices(state: State, cards: list[str]) -> tuple[Choice, ...]:
    """The ``cards`` as choices, each by its name."""
    return tuple(Choice(c, state.label(c)) for c in cards)


def one_card(name: str, label: str, state: State, cards: list[str]) -> Param:
    """A parameter ``name`` that picks one of ``cards``."""
    return Param(name, label, choices=card_choices(state, cards))


def _player_words(label: str) -> str:
    return label[:1].upper() + label[1:]


@cache
def stats_param(kind: str) -> Param:
    """The printed stats of a card of ``kind`` as one ``fields`` parameter: the fields
    that kind has (the catalog's ``stats_fields``), the ones the rules need first
    (``fewest=1``), then the rest (``fewest=0``); bounds from each ``Stats`` field."""
    names = catalog_document("crime_lords").get("stats_fields", {}).get(kind, {})
    needed = [key for key, _ in NEEDED.get(kind, ())]
    infos = {i.key: i for i in fields_of(Stats)}
    parts = []
    for name in [*needed, *(n for n in names if n not in needed)]:
        info = infos.get(name)
        if info is None:
            continue
        spec, fewest = info.spec, 1 if name in needed else 0
        label = _player_words(info.label)
        if info.type is int:
            parts.append(Param(name, label, "number", minimum=spec.minimum or 0,
                               maximum=spec.maximum or 0, fewest=fewest))
        else:
            parts.append(Param(name, label, "text", minimum=1, maximum=spec.max_len,
                               fewest=fewest))
    return Param("stats", "The stats printed on the card", "fields", fields=tuple(parts))


def new_cards(state: State, cards: list[str], kind: str) -> list[str]:
    """The cards of ``kind`` among ``cards`` whose stats are still to be typed."""
    return [c for c in cards if catalog("crime_lords").by_id(c).kind == kind
            and not state.known(c)]


KIND_WORDS = {"crook": "Crook", "racket": "Racket"}


def stats_moves(state: State, seat: int | None) -> list[Move]:
    """The stats of the card just drawn: from the phone of who drew it, or the host."""
    if state.pending is None or state.attack is not None:
        return []
    who, card, kind = state.pending
    if seat not in (None, who):
        return []
    label = f"Enter the stats of {state.label(card)}"
    if seat is None:
        label += f" ({state.seats[who]} drew it)"
    return [Move("stats", label, {"seat": who, "card": card}, (stats_param(kind),))]


def ability_moves(state: State, seat: int) -> list[Move]:
    """What a card's ability does: a term of the success number during an attack
    (anyone), money, markers, Power or a token (the seat on turn, or one in the attack)."""
    fixed = {"seat": seat}
    why = Param("why", "Which card or ability does it?", "text", minimum=1,
                maximum=_spec(Adjust, "why").max_len)
    out: list[Move] = []
    a = state.attack
    if a is not None:
        bound = _spec(Modify, "value")
        out.append(Move("modify", "A card's ability changes the success number", fixed, (
            Param("value", "By how much (+ or -)?", "number", minimum=bound.minimum or 0,
                  maximum=bound.maximum or 0), why), group="ability"))
    on_turn = state.war.turn if state.war is not None else state.turn
    if state.pending is not None or seat != on_turn and (a is None or seat not in (
            a.seat, a.defender)):
        return out
    top = int(_spec(Adjust, "delta").maximum or 0)
    mob = state.mobs[seat]
    out.append(Move("adjust", "A card's ability changes your money", {**fixed, "what": "money"},
                    (Param("delta", "By how much (+ or -)?", "number", minimum=-mob.money,
                           maximum=top), why), group="ability"))
    crooks = [c.card for c in mob.crooks]
    if crooks:
        out.append(Move("adjust", "A card's ability adds or removes Unhappy markers",
                        {**fixed, "what": "unhappy"}, (
                            one_card("card", "Which Crook?", state, crooks),
                            Param("delta", "How many markers (+ or -)?", "number",
                                  minimum=-LEAVE_AT, maximum=LEAVE_AT), why), group="ability"))
        out.append(Move("adjust", "A card's ability gives Power markers",
                        {**fixed, "what": "power"}, (
                            one_card("card", "Which Crook?", state, crooks),
                            Param("delta", "How many markers?", "number", minimum=1,
                                  maximum=MAX_POWER), why), group="ability"))
    tokens = [c.card for c in mob.crooks if c.token]
    if tokens:
        out.append(Move("adjust", "A card's ability spends an Action Token",
                        {**fixed, "what": "token", "delta": 1}, (
                            one_card("card", "Whose token?", state, tokens), why),
                        group="ability"))
    return out


def _spec(kind: type, name: str) -> Any:
    return next(i.spec for i in fields_of(kind) if i.name == name)


def setup_moves(state: State) -> list[Move]:
    """The setup, entered by the host: Mobs, auction sales, the center, the start."""
    free = [c for c in catalog("crime_lords").cards if not in_play(state, c.id)]
    out: list[Move] = []
    mobs = [c.id for c in free if c.kind == "mob"]
    for seat, mob in enumerate(state.mobs):
        name = state.seats[seat]
        if mob.mob_card is None and mobs:
            which = one_card("card", "Which Mob card?", state, mobs)
            out.append(Move("take_mob", f"{name}'s Mob", {"seat": seat}, (which,),
                            group="take_mob"))
            out.append(Move("take_mob", f"{name}'s Mob, with what its card says", {"seat": seat},
                            (which, stats_param("mob")), group="take_mob"))
        price = Param("price", "For how much?", "number", minimum=0, maximum=mob.auction_money)
        sold = [c.id for c in free if c.kind != "mob" and _for_sale(state, c.id, c.kind)]
        if sold:
            out.append(Move("buy", f"{name} won a card", {"seat": seat}, (
                one_card("card", "Which card?", state, sold), price), group="buy"))
        for kind, word in KIND_WORDS.items():
            new = new_cards(state, [c.id for c in free if _for_sale(state, c.id, c.kind, new=True)],
                             kind)
            if new:
                out.append(Move("buy", f"{name} won a new {word}", {"seat": seat}, (
                    one_card("card", f"Which {word}?", state, new), price, stats_param(kind)),
                    group="buy"))
    center = [c.id for c in free if c.kind in ("crook", "racket") and state.known(c.id)]
    if center:
        out.append(Move("uncontrolled", "Turn up a card in the center", {},
                        (one_card("card", "Which card?", state, center),), group="uncontrolled"))
    for kind, word in KIND_WORDS.items():
        new = new_cards(state, [c.id for c in free], kind)
        if new:
            out.append(Move("uncontrolled", f"Turn up a new {word} in the center", {}, (
                one_card("card", f"Which {word}?", state, new), stats_param(kind)),
                group="uncontrolled"))
    problem = start_problem(state)
    first = Param("first", "Who plays first?",
                  choices=tuple(Choice(x, n) for x, n in enumerate(state.seats)))
    out.append(Move("start", "Start the game", {}, (first,)) if problem is None else
               Move("start", "Start the game", {}, allowed=False, why=problem))
    return out


def _for_sale(state: State, card: str, kind: str, new: bool = False) -> bool:
    """Whether the auction may still sell ``card`` without stats typed now (``new``:
    whatever its stats)."""
    most = auction_limit(state, kind)
    if most is not None and auctioned(state, kind) >= most:
        return False
    return new or kind == "special" or state.known(card)
