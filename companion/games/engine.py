"""The rules engine contract: one ``Engine`` object per game (python-chess shape, event-sourced).

Each game package builds exactly one ``Engine[State, Event]`` in its ``__init__`` from
its pure functions; ``companion.games.get`` finds it by name or alias. mypy checks each
function against the contract when the engine is built.

- ``start(setup)`` builds the initial ``State`` (a frozen dataclass) from a setup whose
  seats were checked and whose options were merged with the defaults
  (``Engine.new_game`` does both, then calls ``start``).
- ``decide(state, action, now)`` returns the past-tense events an action causes, or
  raises ``IllegalAction`` with a reason a player understands.
- ``apply(state, event)`` folds one event into a new state; ``outcome(state)`` is the
  end of the game as a value (``None`` while it goes on).
- ``next_deadline(state)`` tells the table loop when to deliver ``Deadline()``
  (the 3-second rule); replay delivers it at exactly that time.
- ``actions`` (a ``companion.games.actions.ActionSet``) declares every action once, as a
  frozen dataclass; ``parse`` turns a record line into it (``decide`` gets the typed
  value) or refuses it in a player's words; ``admit`` does the same for an action sent
  live, after the one check of who sent it (the action's ``by`` against the sender: a
  seat's phone, the host or the table), before any game handler runs.
- ``moves(state, seat)`` lists what ``seat`` (``None``: the host) may do now
  (``companion.games.moves.Move``); ``waiting(state)`` is what the table waits for;
  ``log(state)`` the game's own recent lines; ``scores(state)`` the one scores shape.
- ``public_view(state)`` is what everyone may see; ``secrets(state, seat)`` is the only
  way hidden information leaves, and only to that seat's phone. ``seat_view`` and
  ``table_view`` build the one view shape every game shares from them
  (``companion.games.moves``). ``state_json`` is the referee's view (``companion replay
  --json``).
- ``signals(state, events)``: ``(signal, seat or None)`` for the buzzer and LEDs
  (names from ``base.SIGNALS``).
- ``action_for_input(state, inp)`` turns a camera or button input (``base.TableInput``)
  into an action, ``None`` if it means nothing now, or raises ``IllegalAction``.
- ``end_of_record(state)`` (optional): events that settle what the end of a record
  means (Casablanca: an announced action nobody protested takes effect).
- ``describe(action, events, players)`` (optional): the history's sentence for one
  accepted action, in plain words with player and card names ("Ben played a Twin
  Racketeer (count 3, 4)"); ``None`` leaves it to the dashboard's generic wording.
- ``option_specs`` (optional): option name -> ``OptionSpec`` (label, one line of help,
  choices) for the setup page; an option without one is offered with a generic label.
- ``upgrade_options(version, options)`` (optional): the options a record of an older
  format ``version`` implies, so it replays with the meaning it had when written;
  ``upgrade_action(version, line)`` (optional): one line of such a record as it was
  read then (a key that was ignored then is dropped).
- ``features``: what the game brings to the table beyond its rules (``FEATURES``); the
  web and the command line ask for a feature, never for a game by name.
  ``feature_events`` (feature name -> a test of one event) says which of the game's
  events is a feature's moment: the table publishes it to the edges that subscribed
  (``Table.on_feature_event``: the camera grows a zone), naming no action. ``card_stats``
  (a ``CardStats``, with the feature of that name) says how the table's reaction fills a
  drawn card's printed stats from the deck (``companion.reactions``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from companion.games.actions import ActionSet, Deadline, GameAction, SentBy
from companion.games.base import (
    Action,
    OptionSpec,
    Outcome,
    Setup,
    SetupError,
    SignalOut,
    TableInput,
)
from companion.games.cards import Catalog, catalog
from companion.games.moves import Move, Scores, Waiting, own_part, shared_part

S = TypeVar("S")
E = TypeVar("E")

#: the most deadlines delivered in a row, so a buggy engine cannot hang the table
MAX_DEADLINES = 10_000

#: what a game may bring beyond its rules; the web and the command line ask an engine
#: for these, never for a game by its name
FEATURES: Mapping[str, str] = {
    "camera_demo": "the demo plays it through the synthetic camera (else through phones)",
    "dispute_clips": "a clip of the camera is kept for each hesitation and accusation",
    "board_editor": "the host may draw the board (/host/board)",
    "card_stats": "each physical card's printed stats are entered once and kept in its deck",
    "editable_counts": "a deck's owner may edit how many of each card it has",
    "zone_growth": "a card the host counts beside the pile grows the camera zone nearest it",
    "unread_landings": "a card the camera saw land but could not read is put to the host",
    "pile_sight": "the camera says when a lamp's glare hides tags over the pile",
}


@dataclass(frozen=True)
class CardStats:
    """How a game with ``card_stats`` asks for a card's printed stats and takes them.

    The table's reaction (``companion.reactions.DeckStats``) reads them; each returns an
    action line the table sends itself, so no action is named outside the game.
    """

    #: an event -> ``(seat, card)`` when it asks for that drawn card's stats, else None
    asked: Callable[[Any], tuple[int, str] | None]
    #: ``(seat, card, stats)`` -> the action line entering the stats the deck holds
    enter: Callable[[int, str, Mapping[str, Any]], dict[str, Any]]
    #: ``[(card, stats), ...]`` -> the action line loading the deck's known cards
    load: Callable[[Sequence[tuple[str, Mapping[str, Any]]]], dict[str, Any]]


def _no_moves(state: Any, seat: int | None) -> list[Move]:
    return []


def _no_log(state: Any) -> list[str]:
    return []


def _no_scores(state: Any) -> Scores | None:
    return None


def _same_options(version: int, options: Mapping[str, Any]) -> dict[str, Any]:
    return dict(options)


def _same_line(version: int, line: Mapping[str, Any]) -> dict[str, Any]:
    return dict(line)


def normalise(name: str) -> str:
    """A game name as the registry compares it: lower case, ``_`` for spaces and dashes."""
    return name.strip().lower().replace("-", "_").replace(" ", "_")


@dataclass(frozen=True, eq=False)
class Engine(Generic[S, E]):
    """One game's rules: its names, seat range, options, event types and pure functions."""

    name: str
    title: str
    aliases: tuple[str, ...]
    min_seats: int
    max_seats: int
    #: option name -> default value; a header option not listed here is refused.
    default_options: Mapping[str, Any]
    #: event type name -> event class, for loading stored events.
    event_types: Mapping[str, type]
    start: Callable[[Setup], S]
    decide: Callable[[S, Any, float], list[E]]  # gets a GameAction of ``actions``
    apply: Callable[[S, E], S]
    outcome: Callable[[S], Outcome | None]
    next_deadline: Callable[[S], float | None]
    public_view: Callable[[S], dict[str, Any]]
    secrets: Callable[[S, int], dict[str, Any]]
    waiting: Callable[[S], Waiting]
    state_json: Callable[[S], dict[str, Any]]
    signals: Callable[[S, Sequence[E]], list[SignalOut]]
    action_for_input: Callable[[S, TableInput], GameAction | Action | None]
    end_of_record: Callable[[S], list[E]] | None = None
    describe: Callable[[Action, Sequence[E], Sequence[str]], str | None] | None = None
    option_specs: Mapping[str, OptionSpec] = field(default_factory=dict)
    #: every action, declared once (``companion.games.actions``)
    actions: ActionSet = field(default_factory=lambda: ActionSet("This game"))
    moves: Callable[[S, int | None], list[Move]] = _no_moves
    log: Callable[[S], list[str]] = _no_log
    scores: Callable[[S], Scores | None] = _no_scores
    upgrade_options: Callable[[int, Mapping[str, Any]], dict[str, Any]] = _same_options
    upgrade_action: Callable[[int, Mapping[str, Any]], dict[str, Any]] = _same_line
    features: frozenset[str] = frozenset()
    #: feature name -> which of the game's events is that feature's moment (for the edges)
    feature_events: Mapping[str, Callable[[E], bool]] = field(default_factory=dict)
    #: how the deck's stats reach a card (with the ``card_stats`` feature)
    card_stats: CardStats | None = None
    #: the game's BoardGameGeek id, only where a source we can cite shows it for this
    #: very game (docs/league.md, "BG Stats export"); 0: not linked
    bgg_id: int = 0

    def __post_init__(self) -> None:
        unknown = set(self.features) - set(FEATURES)
        if unknown:
            raise ValueError(f"{self.name}: unknown features {sorted(unknown)}")
        undeclared = set(self.feature_events) - set(self.features)
        if undeclared:
            raise ValueError(f"{self.name}: events for features it lacks {sorted(undeclared)}")
        if (self.card_stats is not None) != self.has("card_stats"):
            raise ValueError(f"{self.name}: the card_stats feature needs its CardStats, "
                             "and CardStats the feature")

    def has(self, feature: str) -> bool:
        """Whether this game brings ``feature`` (a name from ``FEATURES``)."""
        return feature in self.features

    # --- actions and views ----------------------------------------------------------

    def parse(self, action: Mapping[str, Any] | GameAction) -> GameAction:
        """A record line as the game's typed action (``ActionError`` says what is wrong)."""
        return self.actions.parse(action)

    def admit(self, action: Mapping[str, Any] | GameAction, sender: SentBy) -> GameAction:
        """An action sent live by ``sender`` as the game's typed action, once the sender
        may send it (``ActionSet.admit``: the one check of who may do what)."""
        return self.actions.admit(action, sender)

    def seat_view(self, state: S, seat: int) -> dict[str, Any]:
        """The one seat-view shape: seat, attention, moves, secrets, public, log, scores."""
        return {**self.own_view(state, seat), **self._shared(state)}

    def own_view(self, state: S, seat: int | None, waiting: Waiting | None = None,
                 ) -> dict[str, Any]:
        """The part of ``seat``'s view (None: the host's) no one else gets: attention,
        moves and (a seat's) secrets. ``waiting`` saves computing it again."""
        waiting = self.waiting(state) if waiting is None else waiting
        secrets = self.secrets(state, seat) if seat is not None else None
        return own_part(seat, waiting, self.moves(state, seat), secrets)

    def table_view(self, state: S, waiting: Waiting | None = None) -> dict[str, Any]:
        """What shared screens show: what the table waits for, public, log, scores."""
        waiting = self.waiting(state) if waiting is None else waiting
        return {"waiting": waiting.to_json(), **self._shared(state)}

    def _shared(self, state: S) -> dict[str, Any]:
        return shared_part(self.public_view(state), self.log(state), self.scores(state))

    # --- names ----------------------------------------------------------------------

    def answers_to(self, name: str) -> bool:
        """Whether ``name`` (any case, dashes or spaces) is this game's name or an alias."""
        wanted = normalise(name)
        return wanted == self.name or wanted in {normalise(a) for a in self.aliases}

    @property
    def catalog(self) -> Catalog:
        """The game's built-in card catalog (``<game>/data/cards.json``)."""
        return catalog(self.name)

    # --- setup ----------------------------------------------------------------------

    def check_seats(self, setup: Setup) -> None:
        """Raise ``SetupError`` unless the seat count is one the game supports."""
        if not self.min_seats <= setup.n_seats <= self.max_seats:
            raise SetupError(
                f"{self.title} is played by {self.min_seats} to {self.max_seats} players, "
                f"not {setup.n_seats}"
            )

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults merged with ``options``; an unknown option raises ``SetupError``."""
        unknown = sorted(set(options) - set(self.default_options))
        if unknown:
            known = ", ".join(sorted(self.default_options)) or "none"
            raise SetupError(
                f"{self.name}: unknown option(s) {', '.join(unknown)}; known options: {known}"
            )
        merged = dict(self.default_options)
        merged.update(options)
        return merged

    def new_game(self, setup: Setup) -> S:
        """The initial state; ``SetupError`` says which seat count or option to change."""
        self.check_seats(setup)
        return self.start(replace(setup, options=self.check_options(setup.options)))

    # --- running --------------------------------------------------------------------

    def fold(self, state: S, events: Sequence[E]) -> S:
        """Apply ``events`` in order."""
        for event in events:
            state = self.apply(state, event)
        return state

    def run(self, state: S, action: Action | GameAction, now: float) -> tuple[S, list[E]]:
        """Decide and apply one action (typed, or a record line to parse):
        ``(new state, events)``; raises ``IllegalAction``."""
        events = self.decide(state, self.parse(action), now)
        return self.fold(state, events), events

    def settle_record(self, state: S) -> S:
        """The state a finished record stands for (``end_of_record``, if the game has one)."""
        if self.end_of_record is None:
            return state
        return self.fold(state, self.end_of_record(state))

    def deliver_deadlines(
        self,
        state: S,
        until: float,
        on_events: Callable[[float, list[E]], None],
        after: float = float("-inf"),
    ) -> S:
        """Deliver every deadline due at or before ``until``, in time order.

        Used by replay and by the table loop (through ``Session``), so timed rules behave
        the same live and replayed. ``on_events(t, events)`` sees each deadline's events.
        A deadline due at or before ``after`` is not delivered (and stops the delivery).
        """
        for _ in range(MAX_DEADLINES):
            due = self.next_deadline(state)
            if due is None or due > until or due <= after:
                return state
            state, events = self.run(state, Deadline(), due)
            if not events:
                raise RuntimeError(f"{self.name}: deadline at {due} produced no event")
            on_events(due, events)
        raise RuntimeError(f"{self.name}: more than {MAX_DEADLINES} deadlines in a row")


#: An engine of any game, as the registry and the table loop hold it.
AnyEngine = Engine[Any, Any]

__all__ = ["AnyEngine", "CardStats", "Engine", "normalise"]
