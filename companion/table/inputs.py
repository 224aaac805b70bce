"""What the table's own hardware means to the running game: the camera's tags, its unread
landings and its view of the pile, and the buttons.

``TableInputs`` is the part of ``companion.table.Table`` that turns a camera or button
input (``companion.inputs``) into the game's ``TableInput`` and asks the running engine
what it means (``Engine.action_for_input``). The table itself sends the action that comes
back (a seat's button too: the table's hardware, not that seat's phone); the input's
``source`` only says whom a refusal is for. Deadlines due by the input's time are
delivered first, so a card that landed in time is never judged late.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from companion.checks import stats_for
from companion.games.actions import BY_TABLE, GameAction, SentBy
from companion.games.base import (
    Action,
    ButtonInput,
    IllegalAction,
    SightInput,
    TableInput,
    TagInput,
)
from companion.inputs import (
    CAMERA,
    HOST,
    ButtonPressed,
    CardLanded,
    Result,
    Source,
    TagLeft,
    TagSeen,
    source_of,
)
from companion.players import SCANS as PLAYER_CARDS
from companion.session import Session, Undo
from companion.store import GameInfo, StoreError

log = logging.getLogger(__name__)


class TableInputs:
    """The camera's and the buttons' inputs, turned into the running game's actions."""

    session: Session | None
    info: GameInfo | None
    #: the camera's last word on the pile (``PileSight``): a lamp's glare hides part of it
    pile_blind: bool

    # --- the table's: how an action is run -------------------------------------------

    def _t(self, at: float | None) -> float:
        """Game time of an input's ``at`` (now when it has none)."""
        raise NotImplementedError

    def _act(self, action: Mapping[str, Any] | GameAction, t: float, source: Source,
             request_id: str | None = None, sender: SentBy | None = None) -> Result:
        """Run ``action``, store and publish it."""
        raise NotImplementedError

    def _commit_deadlines(self, t: float) -> None:
        """Store the deadlines due by ``t``."""
        raise NotImplementedError

    # --- the inputs --------------------------------------------------------------------

    def _tag(self, inp: TagSeen | TagLeft) -> Result:
        seen = isinstance(inp, TagSeen)
        if inp.status != "ok":
            if not seen:
                return Result(True, ignored=True)
            if PLAYER_CARDS.saw(inp.payload):  # a league player card: the setup page seats it
                return Result(True, ignored=True)
            raise IllegalAction("Unknown tag: this code was not printed for any of our decks.")
        if self.session is None or self.info is None:
            return Result(True, ignored=True)
        if inp.game != self.info.game:
            raise IllegalAction(f"That card belongs to a {inp.game} deck, not to this game.")
        t = self._t(inp.at)
        # a card's printed stats, entered once and kept in its deck (Crime Lords)
        stats = stats_for(inp.payload) if seen else None
        # a card the camera saw land unread and reads now: when it landed
        unread = inp.landed if isinstance(inp, TagSeen) else None
        landed = None if unread is None else self._t(unread)
        return self._from_input(TagInput(seen, inp.card, inp.serial, inp.zone, t, stats=stats,
                                         landed=landed), source_of(inp))

    def _landed(self, inp: CardLanded) -> Result:
        """A card the camera could not read landed: a game that asks the host about such
        cards (feature ``unread_landings``) gets it as a tag with no card and no serial."""
        if self.session is None or not self.session.engine.has("unread_landings"):
            return Result(True, ignored=True)
        return self._from_input(TagInput(True, None, None, inp.zone, self._t(inp.at)),
                                source_of(inp))

    def _sight(self, blind: bool, t: float) -> Result:
        """The camera's view of the pile turned (a lamp's glare): kept for the next game,
        and told to a game that times players from what the camera sees (``pile_sight``)."""
        self.pile_blind = blind
        if self.session is None or not self.session.engine.has("pile_sight"):
            return Result(True, ignored=True)
        return self._from_input(SightInput(blind, t), CAMERA)

    def _sight_unknown(self) -> None:
        """After a restart the camera starts again with nothing amiss, and says so only
        when glare hides the pile (two of its checks, about 2 s): a game resumed blind is
        told the camera sees it whole, or its clock would stay off for good."""
        assert self.session is not None
        try:
            self._sight(False, self.session.last_t)
        except (IllegalAction, StoreError) as exc:
            log.error("could not restart the clock of the resumed game: %s", exc)

    def _button(self, inp: ButtonPressed) -> Result:
        t = self._t(inp.at)
        if self.session is None:
            return Result(True, ignored=True)
        if inp.role == "undo" and inp.hold:
            return self._act(Undo(), t, HOST)
        return self._from_input(ButtonInput(inp.role, inp.seat, inp.hold, t), source_of(inp))

    def _from_input(self, inp: TableInput, source: Source) -> Result:
        """A camera tag or a button press: the table itself sends what it means (a
        seat's button too: the table's hardware, not that seat's phone); ``source``
        only says whom a refusal is for."""
        assert self.session is not None
        self._commit_deadlines(inp.t)
        action: GameAction | Action | None = self.session.engine.action_for_input(
            self.session.state, inp)
        if action is None:
            return Result(True, ignored=True)
        return self._act(action, inp.t, source, sender=BY_TABLE)
