"""The Nasty 7: every action, declared once as a frozen dataclass (``ACTIONS``).

Record lines, phone posts, the host's forms and the camera (``inputs.py``) all pass
through ``ACTIONS.parse``. The accusers of ``accuse`` and the player of ``reassign`` are
the record key ``by``, older than ``GameAction.by`` (who may send an action): their field
is ``by_``, which records write ``by`` (``companion.games.actions.key_of``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, ClassVar, Literal

from companion.games.actions import MAX, ActionSet, GameAction, Sender, Spec
from companion.games.nasty7.state import CARDS, AccuseKind, MistakeKind

#: a card of the game, by its id (players read its printed name)
Card = Literal["racketeer", "twin_racketeer", "phone", "twin_phone", "gun"]


@dataclass(frozen=True, kw_only=True)
class Play(GameAction):
    """A card landed on the pile: by the player to play, or by ``seat`` out of turn.

    ``serial`` is the physical card's number (the camera's): the same card cannot be on
    the pile twice. The camera sends it (``seat`` only in a record or a post); the host
    enters a card by hand with ``missed_card`` (and ``reassign`` for another player).
    ``landed``: the camera saw this card land at that time without reading it, and read it
    later where it lay: it answers that landing's question, played when it landed.
    """

    do: ClassVar[str] = "play"
    label: ClassVar[str] = "Play a card"
    by: ClassVar[Sender] = "table"
    card: Annotated[Card, Spec("the card")]
    seat: Annotated[int, Spec("who played it", 0, 11)] | None = None
    serial: Annotated[int, Spec("the card's number", 0, MAX)] | None = None
    landed: Annotated[float, Spec("when it landed unread", 0, MAX, open=True)] | None = None


@dataclass(frozen=True, kw_only=True)
class Accuse(GameAction):
    """Accuse the player of the last card (or join the waiting accusation).

    ``kind`` says what is alleged; with ``upheld`` (the host's entry) it is settled at
    once, else the count is revealed and the host rules.
    """

    do: ClassVar[str] = "accuse"
    label: ClassVar[str] = "Accuse"
    by: ClassVar[Sender] = "seat"
    by_: Annotated[tuple[int, ...] | int, Spec("the list of accusers", 0, 11, actor=True)]
    against: Annotated[int, Spec("the accused player", 0, 11)] | None = None
    kind: Annotated[AccuseKind, Spec("what is alleged")] | None = None
    upheld: Annotated[bool, Spec("the ruling", host=True)] | None = None


@dataclass(frozen=True, kw_only=True)
class Rule(GameAction):
    """The host rules on the waiting accusation: upheld (the accused takes the pile) or not."""

    do: ClassVar[str] = "rule"
    label: ClassVar[str] = "Rule on the accusation"
    by: ClassVar[Sender] = "host"
    upheld: Annotated[bool, Spec("the ruling")]


@dataclass(frozen=True, kw_only=True)
class Withdraw(GameAction):
    """The host drops the waiting accusation: no penalty, the clock starts again."""

    do: ClassVar[str] = "withdraw"
    label: ClassVar[str] = "Withdraw the accusation"
    by: ClassVar[Sender] = "host"


@dataclass(frozen=True, kw_only=True)
class Mistake(GameAction):
    """The host records a mistake of ``seat``: it takes the pile and starts the next round."""

    do: ClassVar[str] = "mistake"
    label: ClassVar[str] = "Record a mistake"
    by: ClassVar[Sender] = "host"
    seat: Annotated[int, Spec("who made the mistake", 0, 11)] = field()
    kind: Annotated[MistakeKind, Spec("the mistake")]


@dataclass(frozen=True, kw_only=True)
class Word(GameAction):
    """Nasty rule: the first player of a phone this round chooses the word for phones."""

    do: ClassVar[str] = "word"
    label: ClassVar[str] = "Choose the phone word"
    text: Annotated[str, Spec("the word", open=True, max_len=200)]


@dataclass(frozen=True, kw_only=True)
class Reassign(GameAction):
    """The host: the last card was played by ``by``; a player not to play takes the pile."""

    do: ClassVar[str] = "reassign"
    label: ClassVar[str] = "Give the last card to another player"
    by: ClassVar[Sender] = "host"
    by_: Annotated[int, Spec("who played it", 0, 11)]


@dataclass(frozen=True, kw_only=True)
class ReplaceCard(GameAction):
    """The host: the camera misread the last card; it was ``card``."""

    do: ClassVar[str] = "replace_card"
    label: ClassVar[str] = "Correct the last card"
    by: ClassVar[Sender] = "host"
    card: Annotated[Card, Spec("the card")]


@dataclass(frozen=True, kw_only=True)
class MissedCard(GameAction):
    """The host: a card the camera did not see (or no camera); it joins the pile now.

    It is the player to play's card, or ``by``'s (who played it): a player not to play
    takes the pile with it. ``ago`` (seconds) or ``at`` (game time) say when it landed:
    after the card before.
    """

    do: ClassVar[str] = "missed_card"
    label: ClassVar[str] = "Add a card the camera missed"
    by: ClassVar[Sender] = "host"
    card: Annotated[Card, Spec("the card")]
    by_: Annotated[int, Spec("who played it", 0, 11)] | None = None
    ago: Annotated[float, Spec("the time since it landed", 0, 60, open=True)] | None = None
    at: Annotated[float, Spec("when it landed", 0, MAX, open=True)] | None = None


@dataclass(frozen=True, kw_only=True)
class Hesitation(GameAction):
    """The host saw the player to play hesitate (``against``: that player, to check)."""

    do: ClassVar[str] = "hesitation"
    label: ClassVar[str] = "The player to play hesitated"
    by: ClassVar[Sender] = "host"
    against: Annotated[int, Spec("the player who hesitated", 0, 11)] | None = None


@dataclass(frozen=True, kw_only=True)
class SeenBeside(GameAction):
    """The camera: a card of this game seen outside every zone (beside the pile, say).

    Not a play: the host is asked whether to count it, and while the question is open the
    hesitation clock penalises nobody.
    """

    do: ClassVar[str] = "seen_beside"
    label: ClassVar[str] = "A card seen beside the pile"
    by: ClassVar[Sender] = "table"
    card: Annotated[Card, Spec("the card")]
    serial: Annotated[int, Spec("the card's number", 0, MAX)] | None = None


@dataclass(frozen=True, kw_only=True)
class CountSeen(GameAction):
    """The host: count a card seen beside the pile as played (when it landed), or not.

    ``which``: its place among the waiting cards (0: the oldest); without it, the latest.
    """

    do: ClassVar[str] = "count_seen"
    label: ClassVar[str] = "Count the card seen beside the pile"
    by: ClassVar[Sender] = "host"
    count: Annotated[bool, Spec("count it")]
    which: Annotated[int, Spec("which waiting card", 0, 99)] | None = None


@dataclass(frozen=True, kw_only=True)
class LandedUnread(GameAction):
    """The camera: a card landed on the pile and settled, and its tag could not be read
    (a lamp's glare over it). Not a play: the host is asked which card it was, and while
    the question is open the hesitation clock penalises nobody. ``at``: when it landed
    (game time; the camera says so a moment later, once the card lay still)."""

    do: ClassVar[str] = "landed_unread"
    label: ClassVar[str] = "A card landed that the camera could not read"
    by: ClassVar[Sender] = "table"
    at: Annotated[float, Spec("when it landed", 0, MAX, open=True)] | None = None


@dataclass(frozen=True, kw_only=True)
class NameLanded(GameAction):
    """The host: the card that landed unread was ``card`` (played when it landed, by the
    player to play now), or nothing landed (no ``card``).

    ``which``: its place among the waiting landings (0: the oldest); without it, the latest.
    """

    do: ClassVar[str] = "name_landed"
    label: ClassVar[str] = "Say which card landed"
    by: ClassVar[Sender] = "host"
    card: Annotated[Card, Spec("the card")] | None = None
    which: Annotated[int, Spec("which waiting landing", 0, 99)] | None = None


@dataclass(frozen=True, kw_only=True)
class Sight(GameAction):
    """The camera: a lamp's glare would hide a tag over part of the pile (``blind``), or
    it would read everywhere on it again. While it is blind the 3-second clock penalises
    nobody by itself (``glare_timing``): the host rules on hesitation."""

    do: ClassVar[str] = "pile_sight"
    label: ClassVar[str] = "The camera's view of the pile"
    by: ClassVar[Sender] = "table"
    notice: ClassVar[bool] = True
    blind: Annotated[bool, Spec("glare hides part of the pile")]


assert set(Card.__args__) == set(CARDS)  # type: ignore[attr-defined]

ACTIONS = ActionSet(
    "The Nasty 7",
    Play,
    Accuse,
    Rule,
    Withdraw,
    Mistake,
    Word,
    Reassign,
    ReplaceCard,
    MissedCard,
    Hesitation,
    SeenBeside,
    CountSeen,
    LandedUnread,
    NameLanded,
    Sight,
)
