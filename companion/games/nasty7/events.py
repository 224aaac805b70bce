"""The Nasty 7: the past-tense events (stored via ``companion.games.codec``).

Every field is a JSON value (tuples for lists); ``EVENT_TYPES`` maps each stored type
name to its class.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.nasty7.state import CardPlayed as CardPlayed  # the state keeps the last one
from companion.games.nasty7.state import PileReason


@dataclass(frozen=True)
class AccusationOpened:
    """``by`` accused ``against`` (the player of the last card); the count is revealed."""

    by: tuple[int, ...]
    against: int
    kind: str = ""


@dataclass(frozen=True)
class AccusersJoined:
    """More seats joined the waiting accusation."""

    by: tuple[int, ...]


@dataclass(frozen=True)
class AccusationRuled:
    """The host ruled on the waiting accusation at ``at``; a ``PileTaken`` follows."""

    upheld: bool
    at: float = 0.0


@dataclass(frozen=True)
class AccusationWithdrawn:
    """The waiting accusation was dropped with no penalty; the clock restarts at ``at``."""

    at: float


@dataclass(frozen=True)
class PileTaken:
    """The pile went under the stacks of ``seats`` (``cards[i]`` each); a new round begins.

    ``starter`` plays the new round's first card; ``why`` is one of ``PILE_REASONS``;
    ``offender`` is the seat that was penalised or accused; ``at`` the game time.
    """

    seats: tuple[int, ...]
    cards: tuple[int, ...]
    starter: int
    why: PileReason
    offender: int
    at: float = 0.0


@dataclass(frozen=True)
class CardReassigned:
    """The host: the last card was played by ``seat``, not by the seat it was booked to.

    ``in_turn`` False: ``seat`` was not the one to play (a ``PileTaken`` follows).
    """

    seat: int
    in_turn: bool


@dataclass(frozen=True)
class CardReplaced:
    """The host: the last card was misread; it was ``card``."""

    card: str


@dataclass(frozen=True)
class MissedCardAdded:
    """The host: the camera missed ``seat``'s ``card`` that landed at ``landed``.

    It joins the pile as the last card; the next player's clock starts at ``at`` (when the
    table learnt of it: nobody saw a clock run for a card the table did not know of), and
    for a card the host typed in (not ``camera``) only under ``hand_entry_timing``
    ``"clock"``. ``in_turn`` False: ``seat`` was not to play (a ``PileTaken`` follows);
    ``camera``: the camera saw it (beside the pile) and the host counted it, or the camera
    saw it land unread and read it later (``read``: no host's answer was needed).
    """

    seat: int
    card: str
    landed: float
    at: float
    serial: int | None = None
    in_turn: bool = True
    camera: bool = False
    read: bool = False


@dataclass(frozen=True)
class CardSeenBeside:
    """The camera saw ``card`` outside every zone at ``at`` while ``seat`` was to play.

    The host is asked whether it counts; until then nobody is penalised for hesitating.
    """

    seat: int
    card: str
    at: float
    serial: int | None = None


@dataclass(frozen=True)
class SeenCardSettled:
    """The host answered: a card seen beside the pile counts (``counted``) or not.

    ``which`` is its place in the queue of waiting cards (0: the oldest); ``None`` (events
    stored before the queue, when one card waited at most): the latest.
    """

    counted: bool
    at: float
    which: int | None = None


@dataclass(frozen=True)
class CardLandedUnread:
    """The camera saw a card land on the pile at ``at`` and could not read it, while
    ``seat`` was to play. The host says which card; until then nobody is penalised for
    hesitating."""

    seat: int
    at: float


@dataclass(frozen=True)
class LandingNamed:
    """The host answered for a card that landed unread: it was ``card`` (a
    ``MissedCardAdded`` follows) or nothing landed (``None``); ``which`` is its place in
    the queue (0: the oldest)."""

    card: str | None
    at: float
    which: int | None = None


@dataclass(frozen=True)
class PileSightChanged:
    """From ``at`` the camera could not read a tag over part of the pile (``blind``: a
    lamp's glare), or it could again everywhere (the clock starts again at ``at``)."""

    blind: bool
    at: float


@dataclass(frozen=True)
class PenaltyCardsGiven:
    """Even nastier: each of ``by`` gave the top card of its stack to ``to``."""

    to: int
    by: tuple[int, ...]


@dataclass(frozen=True)
class WordSet:
    """Nasty rule: ``seat`` chose the word said for phones for the rest of the round."""

    seat: int
    text: str


@dataclass(frozen=True)
class GameEnded:
    """The game is over: ``winners`` have no cards left."""

    winners: tuple[int, ...]


EVENT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        CardPlayed,
        AccusationOpened,
        AccusersJoined,
        AccusationRuled,
        AccusationWithdrawn,
        PileTaken,
        PenaltyCardsGiven,
        WordSet,
        GameEnded,
        CardReassigned,
        CardReplaced,
        MissedCardAdded,
        CardSeenBeside,
        SeenCardSettled,
        CardLandedUnread,
        LandingNamed,
        PileSightChanged,
    )
}

Event = (
    CardPlayed
    | AccusationOpened
    | AccusersJoined
    | AccusationRuled
    | AccusationWithdrawn
    | PileTaken
    | PenaltyCardsGiven
    | WordSet
    | GameEnded
    | CardReassigned
    | CardReplaced
    | MissedCardAdded
    | CardSeenBeside
    | SeenCardSettled
    | CardLandedUnread
    | LandingNamed
    | PileSightChanged
)
