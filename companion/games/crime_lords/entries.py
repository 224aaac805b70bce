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
from companion.games.crime_lords import vocab
from companion.games.crime_lords.actions import Adjust, Modify, Stats, Uncontrolled
from companion.games.crime_lords.ledger import NEEDED, cards_in_play
from companion.games.crime_lords.mob import LEAVE_AT
from companion.games.crime_lords.setup import (
    auction_limit,
    auctioned,
    crookless,
    start_problem,
)
from companion.games.crime_lords.state import MAX_POWER, State
from companion.games.moves import Choice, Move, Param


def card_choices(state: State, cards: list[str]) -> tuple[Choice, ...]:
    """The ``cards`` as choices, each by its name (a Racket's district beside it when its
    name lacks it: five Casinos are five cards; a name twice gets "(2)")."""
    out: list[Choice] = []
    seen: dict[str, int] = {}
    for c in cards:
        label = state.label(c)
        if state.known(c) and state.card(c).kind == "racket":
            where = state.card(c).district
            if where and vocab.key(where) not in vocab.key(label):
                label = f"{label} ({where})"
        elif not state.known(c):
            where = str((state.registered_stats(c) or {}).get("district") or "")
            if where and vocab.key(where) not in vocab.key(label):
                label = f"{label} ({where})"
        seen[label] = seen.get(label, 0) + 1
        out.append(Choice(c, label if seen[label] == 1 else f"{label} ({seen[label]})"))
    return tuple(out)


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
        if name in PICKED:
            parts.append(Param(name, label, choices=PICKED[name], fewest=fewest))
        elif info.type is int:
            parts.append(Param(name, label, "number", minimum=spec.minimum or 0,
                               maximum=spec.maximum or 0, fewest=fewest))
        else:
            parts.append(Param(name, label, "text", minimum=1, maximum=spec.max_len,
                               fewest=fewest))
    return Param("stats", "The stats printed on the card", "fields", fields=tuple(parts))


#: the stats picked from the rulebook's words (vocab.py), never typed
PICKED: dict[str, tuple[Choice, ...]] = {
    "district": tuple(Choice(w, w) for w in (*vocab.DISTRICTS, vocab.OTHER)),
    "type": tuple(Choice(w, w) for w in (*vocab.RACKET_TYPES, vocab.OTHER)),
    "weakness": tuple(Choice(w, w) for w in (vocab.NONE, *vocab.RACKET_TYPES, vocab.OTHER)),
}


def new_cards(state: State, cards: list[str], kind: str) -> list[str]:
    """The cards of ``kind`` among ``cards`` that neither this game nor the deck knows."""
    return [c for c in cards if catalog("crime_lords").by_id(c).kind == kind
            and not state.ready(c)]


def next_new(state: State, cards: list[str], kind: str) -> str | None:
    """The card a new card of ``kind`` picked by hand takes: the first unused one (its
    sticker number means nothing to players: the camera reads a card's own tag)."""
    new = new_cards(state, cards, kind)
    return new[0] if new else None


def ready_cards(state: State, cards: list[str], kinds: tuple[str, ...]) -> list[str]:
    """The cards of ``kinds`` among ``cards`` known by name (this game or the deck),
    Crooks, Rackets then Specials, each kind by name."""
    by_id = catalog("crime_lords").by_id
    picked = [c for c in cards if by_id(c).kind in kinds and state.ready(c)]
    return sorted(picked, key=lambda c: (kinds.index(by_id(c).kind), state.label(c).lower()))


KIND_WORDS = {"crook": "Crook", "racket": "Racket"}
NEW_WORDS = {"crook": "Crook", "racket": "Racket", "special": "Special"}


def stats_moves(state: State, seat: int | None) -> list[Move]:
    """The stats of the card just drawn: from the phone of who drew it, or the host."""
    if state.pending is None or state.attack is not None:
        return []
    who, card, kind = state.pending
    if seat not in (None, who):
        return []
    label = (f"Enter the stats of {state.label(card)}" if state.ready(card)
             else f"Enter the stats of the new {NEW_WORDS.get(kind, 'card')}")
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
                  maximum=bound.maximum or 0), why), group="a card's ability"))
    on_turn = state.war.turn if state.war is not None else state.turn
    if state.pending is not None or seat != on_turn and (a is None or seat not in (
            a.seat, a.defender)):
        return out
    top = int(_spec(Adjust, "delta").maximum or 0)
    mob = state.mobs[seat]
    out.append(Move("adjust", "A card's ability changes your money", {**fixed, "what": "money"},
                    (Param("delta", "By how much (+ or -)?", "number",
                           minimum=max(-mob.money, -top), maximum=top), why),
                    group="a card's ability"))
    crooks = [c.card for c in mob.crooks]
    if crooks:
        out.append(Move("adjust", "A card's ability adds or removes Unhappy markers",
                        {**fixed, "what": "unhappy"}, (
                            one_card("card", "Which Crook?", state, crooks),
                            Param("delta", "How many markers (+ or -)?", "number",
                                  minimum=-LEAVE_AT, maximum=LEAVE_AT), why), group="a card's ability"))
        out.append(Move("adjust", "A card's ability gives Power markers",
                        {**fixed, "what": "power"}, (
                            one_card("card", "Which Crook?", state, crooks),
                            Param("delta", "How many markers?", "number", minimum=1,
                                  maximum=MAX_POWER), why), group="a card's ability"))
    tokens = [c.card for c in mob.crooks if c.token]
    if tokens:
        out.append(Move("adjust", "A card's ability spends an Action Token",
                        {**fixed, "what": "token", "delta": 1}, (
                            one_card("card", "Whose token?", state, tokens), why),
                        group="a card's ability"))
    return out


def _spec(kind: type, name: str) -> Any:
    return next(i.spec for i in fields_of(kind) if i.name == name)


def setup_moves(state: State) -> list[Move]:
    """The setup, entered by the host: Mobs, auction sales, the center, the start. A card
    is picked by its name (this game or the deck knows it); a card never seen is "a new
    Crook" (with its stats), the camera reading which one it is."""
    playing = cards_in_play(state)
    ids = [c.id for c in catalog("crime_lords").cards if c.id not in playing]
    out: list[Move] = []
    for seat, mob in enumerate(state.mobs):  # the Mobs first: one group on the card
        if mob.mob_card is None:
            out += _mob_moves(state, seat, ids)
    # what every seat's auction offers, listed once (not once per seat and kind)
    ready = ready_cards(state, ids, ("crook", "racket", "special"))
    news = {kind: next_new(state, ids, kind) for kind in NEW_WORDS}
    for seat in range(len(state.mobs)):
        out += _sale_moves(state, seat, ready, news)
    kind_of = catalog("crime_lords").by_id
    center = [c for c in ready if kind_of(c).kind in KIND_WORDS]
    if center:
        out.append(Move("uncontrolled", Uncontrolled.label, {},
                        (one_card("card", "Which card?", state, center),), group="the center"))
    for kind, word in KIND_WORDS.items():
        new = news[kind]
        if new:
            out.append(Move("uncontrolled", f"Turn up a new {word} in the center",
                            {"card": new}, (stats_param(kind),), group="the center"))
    problem = start_problem(state)
    first = Param("first", "Who plays first?",
                  choices=tuple(Choice(x, n) for x, n in enumerate(state.seats)))
    out.append(Move("start", "Start the game", {}, (first,)) if problem is None else
               Move("start", "Start the game", {}, allowed=False, why=problem))
    return out


def _mob_moves(state: State, seat: int, ids: list[str]) -> list[Move]:
    name = state.seats[seat]
    out = []
    known = ready_cards(state, ids, ("mob",))
    if known:
        out.append(Move("take_mob", f"{name}'s Mob", {"seat": seat},
                        (one_card("card", "Which Mob?", state, known),), group="Mobs"))
    new = next_new(state, ids, "mob")
    if new:
        out.append(Move("take_mob", f"{name}'s Mob: a Mob card not entered yet",
                        {"seat": seat, "card": new}, (stats_param("mob"),), group="Mobs"))
    return out


def _sale_moves(state: State, seat: int, ready: list[str],
                news: dict[str, str | None]) -> list[Move]:
    """What the auction may still sell to ``seat``: a card known by name (``ready``), or
    the next new card of each kind (``news``), where that kind's auction is not over."""
    name, mob = state.seats[seat], state.mobs[seat]
    kind_of = catalog("crime_lords").by_id
    price = Param("price", "For how much?", "number", minimum=0, maximum=mob.auction_money)
    rescue = crookless(state, seat)
    open_ = {kind: _for_sale(state, kind, rescue=rescue) for kind in NEW_WORDS}
    sold = [c for c in ready if open_[kind_of(c).kind]]
    if rescue:
        sold += [c for c, _ in state.center if kind_of(c).kind == "crook"]
    out = []
    if sold:
        out.append(Move("buy", f"{name} won a card", {"seat": seat}, (
            one_card("card", "Which card?", state, sold), price), group="the auction"))
    for kind, word in NEW_WORDS.items():
        new = news[kind] if open_[kind] else None
        if new:
            stats = (stats_param(kind),) if kind in KIND_WORDS else ()
            out.append(Move("buy", f"{name} won a new {word}", {"seat": seat, "card": new},
                            (price, *stats), group="the auction"))
    return out


def _for_sale(state: State, kind: str, rescue: bool = False) -> bool:
    """Whether the auction may still sell a card of ``kind``; ``rescue``: to a player
    without a Crook (no limit on Crooks)."""
    most = auction_limit(state, kind)
    return most is None or auctioned(state, kind) < most or (rescue and kind == "crook")
