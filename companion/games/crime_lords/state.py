"""Crime Lords' values: options, cards with their entered stats, Mobs, the state.

Everything is a frozen dataclass of tuples (an event's ``stats`` is a JSON object).
Card stats are entered once per physical card (no public card list exists): the first
action that brings a card into play carries them, and the state keeps them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard, get_args

from companion.games.base import Setup, SetupError
from companion.games.cards import catalog
from companion.games.crime_lords import vocab
from companion.games.frozen import replace
from companion.games.memo import ByIdentity

GameLength = Literal["long", "short"]
#: where the game is: before the first turn, in the turns, won
Phase = Literal["setup", "turn", "over"]
#: the step of the turn: income and pay-off, then actions (``war`` during a Gang War)
Step = Literal["collect", "actions", "war"]
AttackKind = Literal["recruit", "takeover", "hit"]
#: an attack's stage: the defender names a protector, the showdown, then aid and defense
Stage = Literal["protector", "showdown", "support"]
#: a showdown hand is spent for or against the attack
Side = Literal["for", "against"]
#: a card that helps an attack aids it or defends against it
HelpSide = Literal["attack", "defense"]
#: a card whose stats the ledger keeps
CardKind = Literal["crook", "racket"]
#: where a Crook who leaves a Mob goes
Destination = Literal["center", "discard"]
#: how draws are counted: the rulebook's number (at least one, fill the center to four,
#: the Downtowners one extra), or left to the players
DrawRule = Literal["count", "free"]
#: what wins: enough Rackets (the victory table), more Crooks and Rackets than all foes
#: together (the seriously long game), or being the last Mob standing
Victory = Literal["rackets", "most_cards", "last_standing"]
#: the words of ``status`` and of gift log lines: today's, or as version-1 records had them
Wording = Literal["current", "v1"]

#: Victory table of the rulebook: (long game, short game) by number of players.
RACKETS_TO_WIN = {2: (14, 11), 3: (14, 11), 4: (13, 10), 5: (12, 9), 6: (11, 8), 7: (9, 7), 8: (9, 7)}
MAX_POWER = 6  # no Crook's own Power exceeds 6 (the Boss bonus is extra)
LENGTHS: tuple[GameLength, ...] = get_args(GameLength)
DRAW_RULES: tuple[DrawRule, ...] = get_args(DrawRule)
VICTORIES: tuple[Victory, ...] = get_args(Victory)
WORDINGS: tuple[Wording, ...] = get_args(Wording)
CENTER_FILL = 4  # draw until the center has four cards
#: what shared screens say while the host enters the setup
SETTING_UP = "Setting up: Mobs, the auction, Bosses."


def war_begins(first: str) -> str:
    """The log's and the history's sentence for the start of the game."""
    return f"The war for the city begins: {first} plays first."


CARD_KINDS: tuple[CardKind, ...] = get_args(CardKind)
#: how a card nobody named is called, by its catalog kind (``State.unnamed``)
UNNAMED_WORDS = {"crook": "Crook", "racket": "Racket"}


def is_card_kind(kind: str) -> TypeGuard[CardKind]:
    """Whether a catalog kind is one whose stats the ledger keeps (Crooks and Rackets)."""
    return kind in CARD_KINDS


@dataclass(frozen=True)
class Options:
    game_length: GameLength
    rackets_to_win: int
    starting_money: int
    pass_bonus: int
    max_lieutenants: int
    max_subordinates: int
    showdown_limit: int
    hit_money_limit: int
    gang_war_bonus: int
    auction_money: int
    auction_crooks: int | None = 3  # Crooks auctioned per player (None: no limit)
    auction_rackets: int | None = 2  # Rackets auctioned per player (None: no limit)
    draw_rule: DrawRule = "count"
    share_one_short: bool = True
    victory: Victory = "rackets"
    #: a Hit on one's own Crook during a Gang War leaves the war turn with the seat, as
    #: version-1 records played it (the rules: it is the war turn's one attempt)
    own_hit_keeps_war_turn: bool = False
    #: a Mob that went out kept its turn (the table waited for it), its Crook offer and its
    #: shared-win question, and the last Mob standing won only at the end of a turn, as
    #: version-1 records played it (the rules: "Out players are skipped")
    out_keeps_turn: bool = False
    #: the words of ``status`` and of the log for gifts: ``"current"``, or ``"v1"`` (as
    #: version-1 records showed them)
    wording: Wording = "current"


DEFAULT_OPTIONS: Mapping[str, Any] = {
    "game_length": "short",
    "rackets_to_win": None,
    "starting_money": 50,
    "auction_money": 25,
    "pass_bonus": 10,
    "max_lieutenants": 4,
    "max_subordinates": 3,
    "showdown_limit": 10,
    "hit_money_limit": 5,
    "gang_war_bonus": 5,
    "auction_crooks": 3,
    "auction_rackets": 2,
    "draw_rule": "count",
    "share_one_short": True,
    "victory": "rackets",
    # version-1 records only (``upgrade_options``; ``None``: today's rule and words), so
    # the setup page does not offer them
    "own_hit_keeps_war_turn": None,
    "out_keeps_turn": None,
    "wording": None,
}

#: what a version-1 record (written before issue 17's rules) means, where a default
#: changed since: draws were not counted, the auction had no limits, nobody was asked
#: to share a win one Racket short, a Hit on one's own Crook in a Gang War left the war
#: turn with the seat, a Mob that went out kept its turn, and ``status`` and gift log lines had their old words
#: (docs/records.md, "Versions"; docs/rules/crime_lords.md)
V1_OPTIONS: Mapping[str, Any] = {
    "draw_rule": "free",
    "auction_crooks": None,
    "auction_rackets": None,
    "share_one_short": False,
    "own_hit_keeps_war_turn": True,
    "out_keeps_turn": True,
    "wording": "v1",
}


def upgrade_options(version: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a record of format ``version`` implies: a version-1 record gets the
    meaning it had when written (``V1_OPTIONS``), unless its header says otherwise."""
    if version >= 2:
        return dict(options)
    return {**V1_OPTIONS, **options}


def parse_options(raw: Mapping[str, Any], n_seats: int) -> Options:
    """Options from a header (already merged with defaults); ``SetupError`` says what to fix."""
    length = raw["game_length"]
    if length not in LENGTHS:
        raise SetupError("crime_lords: option 'game_length' must be \"long\" or \"short\"")
    ints = {}
    for key in (
        "starting_money", "pass_bonus", "max_lieutenants", "max_subordinates",
        "showdown_limit", "hit_money_limit", "gang_war_bonus", "auction_money",
    ):
        ints[key] = _count(raw, key)
    crooks = None if raw["auction_crooks"] is None else _count(raw, "auction_crooks")
    rackets = None if raw["auction_rackets"] is None else _count(raw, "auction_rackets")
    target = raw["rackets_to_win"]
    if target is None:
        target = RACKETS_TO_WIN[n_seats][LENGTHS.index(length)]
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise SetupError("crime_lords: option 'rackets_to_win' must be a whole number >= 1")
    draw_rule = raw["draw_rule"]
    if draw_rule not in DRAW_RULES:
        raise SetupError("crime_lords: option 'draw_rule' must be \"count\" or \"free\"")
    victory = raw["victory"]
    if victory not in VICTORIES:
        raise SetupError(
            "crime_lords: option 'victory' must be \"rackets\", \"most_cards\" or "
            "\"last_standing\""
        )
    flags: dict[str, bool] = {}
    for key in ("share_one_short", "own_hit_keeps_war_turn", "out_keeps_turn"):
        value = raw[key]
        if key != "share_one_short" and value is None:
            value = False
        if not isinstance(value, bool):
            raise SetupError(f"crime_lords: option '{key}' must be true or false")
        flags[key] = value
    wording = "current" if raw["wording"] is None else raw["wording"]
    if wording not in WORDINGS:
        raise SetupError("crime_lords: option 'wording' must be \"current\" or \"v1\"")
    return Options(game_length=length, rackets_to_win=target, draw_rule=draw_rule,
                   victory=victory, auction_crooks=crooks, auction_rackets=rackets,
                   wording=wording, share_one_short=flags["share_one_short"],
                   own_hit_keeps_war_turn=flags["own_hit_keeps_war_turn"],
                   out_keeps_turn=flags["out_keeps_turn"], **ints)


def _count(raw: Mapping[str, Any], key: str) -> int:
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SetupError(f"crime_lords: option {key!r} must be a whole number >= 0")
    return value


# --- cards -----------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """One physical card's stats as entered by the deck's owner."""

    id: str
    kind: CardKind
    name: str
    power: int = 0
    resistance: int = 0
    income: int = 0
    district: str = ""
    type: str = ""  # a Racket's type (Casinos...): the 'type' stat, else its name
    weakness: tuple[str, ...] = ()
    ability: str = ""

    @property
    def bodyguard(self) -> bool:
        """A Crook whose ability text names him a Bodyguard (-5 to Hit his superior)."""
        return "bodyguard" in self.ability.lower()


def card_from_stats(card_id: str, kind: CardKind, stats: Mapping[str, Any],
                    lower: bool = False) -> Card:
    """A ``Card`` from the stats a deck holds (missing numbers count 0). Text stays as
    typed (``lower``: lower-cased, as version 1 kept it); a Racket of type "Other" is of
    its own type (its name); a Weakness "None" is none."""

    def num(key: str) -> int:
        value = stats.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def text(key: str) -> str:
        value = stats.get(key)
        value = value.strip() if isinstance(value, str) else ""
        return value.lower() if lower else value

    name = stats.get("name")
    name = name.strip() if isinstance(name, str) and name.strip() else card_id
    weakness = tuple(
        w.strip() for w in re.split(r"[,/;]| or ", text("weakness"))
        if w.strip() and not vocab.is_none(w)
    )
    racket_type = text("type")
    if not racket_type or vocab.is_other(racket_type):
        racket_type = name.lower() if lower else name
    return Card(
        id=card_id, kind=kind, name=name, power=num("power"), resistance=num("resistance"),
        income=num("income"), district=text("district"),
        type=racket_type if kind == "racket" else "",
        weakness=weakness, ability=stats.get("ability", "").strip()
        if isinstance(stats.get("ability"), str) else "",
    )


# --- the Mobs --------------------------------------------------------------------


@dataclass(frozen=True)
class Crook:
    """A Crook in a Mob. ``superior`` is ``None`` for the Boss and for unplaced Crooks."""

    card: str
    superior: str | None = None
    unhappy: int = 0
    token: bool = False
    plus: int = 0  # Power markers from Hits
    was_lieutenant: bool = False  # unplaced because his Boss left: still a Lieutenant


@dataclass(frozen=True)
class Holding:
    """A Racket a Mob controls (``token`` only matters for Rackets with Power)."""

    card: str
    token: bool = False


@dataclass(frozen=True)
class Mob:
    mob_card: str | None = None
    mob_name: str = ""
    boss_bonus: int = 0
    boss: str | None = None
    money: int = 0
    auction_money: int = 0
    crooks: tuple[Crook, ...] = ()
    rackets: tuple[Holding, ...] = ()
    specials: tuple[str, ...] = ()
    out: bool = False
    wiped_by: int | None = None
    extra_draws: int = 0  # the Downtowners draw one extra
    left: bool = False  # the player left the game

    def crook(self, card: str) -> Crook | None:
        return next((c for c in self.crooks if c.card == card), None)

    def with_crook(self, crook: Crook) -> Mob:
        return replace(self, crooks=tuple(crook if c.card == crook.card else c for c in self.crooks))

    def subordinates(self, card: str) -> tuple[Crook, ...]:
        return tuple(c for c in self.crooks if c.superior == card)

    def below(self, card: str) -> tuple[str, ...]:
        """Every Crook under ``card`` (not ``card`` himself), nearest first."""
        out: list[str] = []
        todo = [card]
        while todo:
            kids = [c.card for c in self.subordinates(todo.pop(0))]
            out.extend(kids)
            todo.extend(kids)
        return tuple(out)


# --- an attack in progress ----------------------------------------------------------


@dataclass(frozen=True)
class Attack:
    seat: int
    kind: AttackKind
    attacker: str
    target: str
    defender: int | None  # seat that controls the target, None when uncontrolled
    stage: Stage
    money: int = 0  # a Hit's money from the attacker (at most 5)
    protector: str | None = None
    committed: tuple[tuple[int, int, Side], ...] = ()  # secret: (seat, amount, side)
    revealed: tuple[tuple[int, int, Side], ...] | None = None
    helpers: tuple[tuple[int, str, HelpSide], ...] = ()  # (seat, card, side)
    modifiers: tuple[tuple[int, str], ...] = ()  # (value, why) from special abilities
    war: bool = False


@dataclass(frozen=True)
class War:
    """A Gang War: who is in it, whose war turn it is, and the passes in a row."""

    origin: int
    seats: tuple[int, ...]
    turn: int
    passes: int = 0


def _first_by_key(pairs: Any) -> dict[str, Any]:
    """``(key, value)`` pairs as a dict, the first of a key winning (as a scan in order)."""
    index: dict[str, Any] = {}
    for key, value in pairs:
        index.setdefault(key, value)
    return index


#: ``State.cards`` and ``State.registered`` by card id: ``known``, ``card`` and ``ready``
#: are asked hundreds of thousands of times over a game's moves and words, and scanning
#: the tuple each time was most of it (``memo.ByIdentity``: states share these tuples
#: until a card is entered, so a few entries serve a whole game)
_by_id: ByIdentity[tuple[Card, ...], dict[str, Card]] = ByIdentity(
    lambda cards: _first_by_key((card.id, card) for card in cards))
_registered: ByIdentity[tuple[tuple[str, tuple[tuple[str, Any], ...]], ...],
                        dict[str, tuple[tuple[str, Any], ...]]] = ByIdentity(_first_by_key)
#: each card's label, by the cards and the deck's stats it was worked out from (and the
#: wording): the labels of one ``cards`` tuple, kept by its ``registered`` tuple
_LABELS: ByIdentity[tuple[Card, ...], ByIdentity[Any, dict[str, dict[str, str]]]] = \
    ByIdentity(lambda cards: ByIdentity(lambda held: {}))


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    options: Options
    mobs: tuple[Mob, ...]
    cards: tuple[Card, ...] = ()
    center: tuple[tuple[str, int], ...] = ()  # uncontrolled (card, Power markers)
    discard: tuple[str, ...] = ()
    phase: Phase = "setup"
    step: Step = "collect"
    turn: int = 0
    acted: bool = False
    attack: Attack | None = None
    war: War | None = None
    last_roll: tuple[tuple[str, Any], ...] | None = None
    winners: tuple[int, ...] | None = None
    scores: tuple[int, ...] = ()
    drawn: int = 0  # cards drawn this turn
    filled: bool = False  # the turn's draws reached four cards in the center
    extra_drawn: int = 0  # draws after that (the Downtowners' extra card)
    deck_empty: bool = False
    #: a drawn card whose stats are not known yet: (seat, card, kind)
    pending: tuple[int, str, str] | None = None
    #: a Crook offered to another Mob, waiting for its yes: (from seat, to seat, card)
    offer: tuple[int, int, str] | None = None
    #: Mobs one card short asked to share the win: (asked seats, seats that agreed)
    share: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    log: tuple[str, ...] = field(default=())
    #: the stats a deck already holds, by card (loaded before the game): such a card is
    #: picked by its name and needs no stats typed when it comes into play
    registered: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    #: Crooks sold at the auction and dropped to the center in the setup (they fit under
    #: nobody): they still count toward the auction's limit
    dropped_in_setup: int = 0

    @property
    def over(self) -> bool:
        """Whether the game is over (a Mob, or Mobs together, control the city)."""
        return self.phase == "over"

    def card(self, card_id: str) -> Card:
        return _by_id(self.cards)[card_id]

    def known(self, card_id: str) -> bool:
        return card_id in _by_id(self.cards)

    def owner(self, card_id: str) -> int | None:
        """The seat whose Mob holds this Crook or Racket, or ``None``."""
        for seat, mob in enumerate(self.mobs):
            if mob.crook(card_id) or any(h.card == card_id for h in mob.rackets):
                return seat
        return None

    def in_center(self, card_id: str) -> bool:
        return any(c == card_id for c, _ in self.center)

    def ready(self, card_id: str) -> bool:
        """Whether ``card_id`` comes into play without stats typed: entered in this game,
        or held by the deck."""
        return self.known(card_id) or card_id in _registered(self.registered)

    def registered_stats(self, card_id: str) -> dict[str, Any] | None:
        """The stats the deck holds for ``card_id`` (loaded before the game), or None."""
        stats = _registered(self.registered).get(card_id)
        return None if stats is None else dict(stats)

    def label(self, card_id: str) -> str:
        """A card as a player reads it: its entered name (or the name the deck holds),
        else what is printed on it ("Crook of Power 4", "Casinos Racket of North Side",
        ``unnamed``), never its id nor its catalog slot. Version-1 records keep the
        catalog slot ("Crook 07") their logs and replays were written with. Worked out
        once per card while the cards and the deck's stats stay the same tuples."""
        kept = _LABELS(self.cards)(self.registered).setdefault(self.options.wording, {})
        label = kept.get(card_id)
        if label is None:
            label = kept[card_id] = self._label(card_id)
        return label

    def _label(self, card_id: str) -> str:
        if self.known(card_id) and self.card(card_id).name != card_id:
            return self.card(card_id).name
        held = self.registered_stats(card_id)
        if held and isinstance(held.get("name"), str) and held["name"].strip():
            return str(held["name"]).strip()
        if self.options.wording == "v1":
            try:
                return catalog("crime_lords").by_id(card_id).label()
            except KeyError:
                return "this card"
        return self.unnamed(card_id)

    def unnamed(self, card_id: str) -> str:
        """A card nobody named, by what is printed on it: "Crook of Power 4", "Casinos
        Racket of North Side", "Racket of Income 3"; a card whose stats are not in yet
        "Crook not yet entered"; a Special "Special card" (its text is its owner's)."""
        try:
            kind = catalog("crime_lords").by_id(card_id).kind
        except KeyError:
            return "this card"
        if kind == "mob":
            return "an unnamed Mob"
        if kind == "special":
            return "Special card"
        if not self.known(card_id):
            return f"{UNNAMED_WORDS.get(kind, 'card')} not yet entered"
        card = self.card(card_id)
        if card.kind == "crook":
            return f"Crook of Power {card.power}"
        kind_of = card.type if card.type and card.type != card_id else ""
        where = f" of {card.district}" if card.district else ""
        if kind_of or where:
            return f"{kind_of} Racket{where}".strip()
        return f"Racket of Income {card.income}"

    def next_seat(self, seat: int) -> int:
        """The next player still in the game: play goes counterclockwise."""
        n = len(self.seats)
        for step in range(1, n + 1):
            other = (seat - step) % n
            if not self.mobs[other].out:
                return other
        return seat

    def with_mob(self, seat: int, mob: Mob) -> State:
        return replace(self, mobs=self.mobs[:seat] + (mob,) + self.mobs[seat + 1 :])

    def logged(self, line: str) -> State:
        return replace(self, log=(self.log + (line,))[-30:])


def start(setup: Setup) -> State:
    """Before the auction: every player with the bidding money and no cards."""
    options = parse_options(setup.options, setup.n_seats)
    mob = Mob(auction_money=options.auction_money)
    return State(seats=tuple(setup.seats), options=options, mobs=tuple(mob for _ in setup.seats))
