"""Crime Lords: the moves whose values are typed or entered, not picked from the table.

A card's printed stats (``stats``, and the ``stats`` of a draw, a sale, a card turned up
or a Mob card the first time the card comes into play) as one ``fields`` parameter made
of the ``Stats`` fields that kind of card has (the ones the rules need first; words
and numbers picked from lists: the numbers' ranges are the catalog's ``stats_ranges``,
the values already on the deck first; only a name and an ability typed); an ability's effect (``modify`` during an attack, ``adjust``
on one's turn or in an attack one is part of) with a number and its reason as text; and
the setup the host enters (Mobs, auction sales, the center, the start). ``moves.py``
assembles them with the rest; ``decide`` stays the judge.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
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


def stats_param(state: State, kind: str) -> Param:
    """The printed stats of a card of ``kind`` as one ``fields`` parameter: the fields
    that kind has (the catalog's ``stats_fields``), the ones the rules need first
    (``fewest=1``), then the rest (``fewest=0``). Words and numbers are pick-lists (the
    rulebook's words; each number's values, those already on the deck first, see
    ``number_choices``); only the name is typed. A Crook's ability is whether he is a
    Bodyguard (the one ability the rules read); a Mob's or a Racket's ability text is
    not asked at the table (``UNTYPED``: the deck page takes it)."""
    names = catalog_document("crime_lords").get("stats_fields", {}).get(kind, {})
    needed = [key for key, _ in NEEDED.get(kind, ())]
    infos = {i.key: i for i in fields_of(Stats)}
    parts = []
    for name in [*needed, *(n for n in names if n not in needed)]:
        info = infos.get(name)
        if info is None or name in UNTYPED.get(kind, ()):
            continue
        spec, fewest = info.spec, 1 if name in needed else 0
        label = _player_words(info.label)
        if name == "ability":  # a Crook's: the one ability the rules read
            parts.append(Param(name, "Is he a Bodyguard?", choices=BODYGUARD, fewest=0))
        elif name in PICKED:
            parts.append(Param(name, label, choices=PICKED[name], fewest=fewest))
        elif info.type is int:
            parts.append(Param(name, label, choices=number_choices(state, kind, name),
                               fewest=fewest))
        else:
            parts.append(Param(name, label, "text", minimum=1, maximum=spec.max_len,
                               fewest=fewest))
    return Param("stats", "The stats printed on the card", "fields", fields=tuple(parts))


def stats_range(kind: str, name: str) -> tuple[int, int]:
    """The printed values a number ``name`` of a card of ``kind`` is picked from (the
    catalog's ``stats_ranges``, from the rulebook), within the action's bounds."""
    spec = next(i.spec for i in fields_of(Stats) if i.key == name)
    low, high = catalog_document("crime_lords")["stats_ranges"][kind][name]
    return max(int(low), int(spec.minimum or 0)), min(int(high), int(spec.maximum or 0))


def number_choices(state: State, kind: str, name: str) -> tuple[Choice, ...]:
    """A printed number's values: those already on the deck (cards of ``kind`` the deck
    holds or this game entered), the most frequent first, then the rest of its range."""
    spec = next(i.spec for i in fields_of(Stats) if i.key == name)
    seen = Counter(v for v in seen_values(state, kind, name)
                   if (spec.minimum or 0) <= v <= (spec.maximum or 0))
    first = sorted(seen, key=lambda v: (-seen[v], v))
    low, high = stats_range(kind, name)
    words = {0: NOT_PRINTED[kind, name]} if (kind, name) in NOT_PRINTED else {}
    return tuple(Choice(v, words.get(v, str(v))) for v in [
        *first, *(v for v in range(low, high + 1) if v not in seen)])


def seen_values(state: State, kind: str, name: str) -> list[int]:
    """The values of the number ``name`` on the cards of ``kind`` the deck holds (every
    stat it was given) and this game entered (the numbers the rules need; a Mob's Boss
    bonus), each card once."""
    kind_of = catalog("crime_lords").by_id
    out: list[int] = []
    held: set[str] = set()
    for card, stats in state.registered:
        held.add(card)
        value = dict(stats).get(name)
        if kind_of(card).kind == kind and isinstance(value, int) and not isinstance(
                value, bool):
            out.append(value)
    if name in (key for key, _ in NEEDED.get(kind, ())):
        out += [getattr(c, name) for c in state.cards if c.kind == kind and c.id not in held]
    if kind == "mob" and name == "boss_bonus":
        out += [m.boss_bonus for m in state.mobs
                if m.mob_card is not None and m.mob_card not in held]
    return out


#: the stats not asked at the table: an ability the rules do not read (the players apply
#: it with ``modify`` and ``adjust``); the deck page (/cards) keeps its text
UNTYPED: dict[str, tuple[str, ...]] = {"mob": ("ability",), "racket": ("ability",),
                                       "special": ("text",)}
#: a Crook's ability as the rules read it: a Bodyguard (``Card.bodyguard``) or not
BODYGUARD = (Choice(None, "No"), Choice("Bodyguard", "Yes, a Bodyguard"))
#: a number whose 0 means it is not printed on the card
NOT_PRINTED = {("racket", "power"): "No Power"}

#: the stats picked from the rulebook's words (vocab.py), never typed
PICKED: dict[str, tuple[Choice, ...]] = {
    "district": tuple(Choice(w, w) for w in (*vocab.DISTRICTS, vocab.OTHER)),
    "type": tuple(Choice(w, w) for w in (*vocab.RACKET_TYPES, vocab.OTHER)),
    "weakness": tuple(Choice(w, w) for w in (vocab.NONE, *vocab.RACKET_TYPES, vocab.OTHER)),
}


def next_new(state: State, cards: list[str], kind: str) -> str | None:
    """The card a new card of ``kind`` picked by hand takes: the first of ``cards`` that
    neither this game nor the deck knows (its sticker number means nothing to players:
    the camera reads a card's own tag)."""
    by_id = catalog("crime_lords").by_id
    return next((c for c in cards if by_id(c).kind == kind and not state.ready(c)), None)


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
    return [Move("stats", label, {"seat": who, "card": card}, (stats_param(state, kind),))]


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
    # a kind's stats and a list of cards are the same for every seat: worked out once
    stats = cache(lambda kind: stats_param(state, kind))
    mobs = ready_cards(state, ids, ("mob",)), next_new(state, ids, "mob")
    for seat, mob in enumerate(state.mobs):  # the Mobs first: one group on the card
        if mob.mob_card is None:
            out += _mob_moves(state, seat, mobs, stats)
    # what every seat's auction offers, listed once (not once per seat and kind)
    ready = ready_cards(state, ids, ("crook", "racket", "special"))
    news = {kind: next_new(state, ids, kind) for kind in NEW_WORDS}
    choices = cache(lambda cards: card_choices(state, list(cards)))
    for seat in range(len(state.mobs)):
        out += _sale_moves(state, seat, ready, news, stats, choices)
    kind_of = catalog("crime_lords").by_id
    center = [c for c in ready if kind_of(c).kind in KIND_WORDS]
    if center:
        out.append(Move("uncontrolled", Uncontrolled.label, {},
                        (one_card("card", "Which card?", state, center),), group="the center"))
    for kind, word in KIND_WORDS.items():
        new = news[kind]
        if new:
            out.append(Move("uncontrolled", f"Turn up a new {word} in the center",
                            {"card": new}, (stats(kind),), group="the center"))
    problem = start_problem(state)
    first = Param("first", "Who plays first?",
                  choices=tuple(Choice(x, n) for x, n in enumerate(state.seats)))
    out.append(Move("start", "Start the game", {}, (first,)) if problem is None else
               Move("start", "Start the game", {}, allowed=False, why=problem))
    return out


def _mob_moves(state: State, seat: int, mobs: tuple[list[str], str | None],
               stats: Callable[[str], Param]) -> list[Move]:
    """A Mob card for ``seat``: one of the known ones, or the next new one (``mobs``)."""
    name = state.seats[seat]
    out = []
    known, new = mobs
    if known:
        out.append(Move("take_mob", f"{name}'s Mob", {"seat": seat},
                        (one_card("card", "Which Mob?", state, known),), group="Mobs"))
    if new:
        out.append(Move("take_mob", f"{name}'s Mob: a Mob card not entered yet",
                        {"seat": seat, "card": new}, (stats("mob"),), group="Mobs"))
    return out


def _sale_moves(state: State, seat: int, ready: list[str], news: dict[str, str | None],
                stats: Callable[[str], Param],
                choices: Callable[[tuple[str, ...]], tuple[Choice, ...]]) -> list[Move]:
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
            Param("card", "Which card?", choices=choices(tuple(sold))), price),
            group="the auction"))
    for kind, word in NEW_WORDS.items():
        new = news[kind] if open_[kind] else None
        if new:
            printed = (stats(kind),) if kind in KIND_WORDS else ()
            out.append(Move("buy", f"{name} won a new {word}", {"seat": seat, "card": new},
                            (price, *printed), group="the auction"))
    return out


def _for_sale(state: State, kind: str, rescue: bool = False) -> bool:
    """Whether the auction may still sell a card of ``kind``; ``rescue``: to a player
    without a Crook (no limit on Crooks)."""
    most = auction_limit(state, kind)
    return most is None or auctioned(state, kind) < most or (rescue and kind == "crook")
