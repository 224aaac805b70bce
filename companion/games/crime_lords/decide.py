"""Crime Lords' ``decide``: the action table and the checks every action shares.

Each action's handler lives with its topic: ``setup`` (Mobs, the auction, Bosses),
``turn`` (income, pay-off, draws, moves, gifts), ``fight`` (attacks and Gang War).
Every handler has one signature: ``(state, its typed action, now) -> events``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.actions import Deadline, GameAction
from companion.games.base import Outcome, require
from companion.games.crime_lords import fight
from companion.games.crime_lords import setup as setup_
from companion.games.crime_lords import turn as turn_
from companion.games.crime_lords.actions import (
    ACTIONS,
    AcceptCrook,
    Adjust,
    Assist,
    Attack,
    Buy,
    CardStatsEntered,
    ChooseBoss,
    Claim,
    Collect,
    DeckEmpty,
    Defend,
    Draw,
    Drop,
    EndTurn,
    Give,
    Leave,
    LoadDeck,
    Modify,
    MoveCrook,
    Now,
    PassTurn,
    Place,
    PlaySpecial,
    Protect,
    RefuseCrook,
    RetireBoss,
    Roll,
    Share,
    Showdown,
    Start,
    TakeMob,
    Uncontrolled,
    Visit,
    WarPass,
    Withdraw,
)
from companion.games.crime_lords.events import Event, TurnActed
from companion.games.crime_lords.fold import emitter
from companion.games.crime_lords.state import State

Handler = Callable[[State, Any, float], list[Event]]


def _deadline(state: State, action: Deadline, now: float) -> list[Event]:
    """Crime Lords has no timed rules: the clock never acts."""
    require(False, "Crime Lords has no timed rules.")
    return []


_HANDLERS: dict[type[GameAction], Handler] = {
    LoadDeck: setup_.load_deck, TakeMob: setup_.take_mob, Buy: setup_.buy, Uncontrolled: setup_.uncontrolled,
    Start: setup_.start_game, ChooseBoss: setup_.choose_boss, Place: setup_.place,
    Collect: turn_.collect, Draw: turn_.draw, EndTurn: turn_.end_turn,
    PassTurn: turn_.pass_turn, MoveCrook: turn_.move, Drop: turn_.drop, Visit: turn_.visit,
    RetireBoss: turn_.retire_boss, Claim: turn_.claim, Give: turn_.give,
    PlaySpecial: turn_.play_special, Adjust: turn_.adjust, CardStatsEntered: turn_.card_stats,
    DeckEmpty: turn_.deck_empty, AcceptCrook: turn_.accept_crook,
    RefuseCrook: turn_.refuse_crook, Leave: turn_.leave, Share: turn_.share,
    Attack: fight.announce, Protect: fight.protect, Showdown: fight.showdown, Now: fight.now,
    Withdraw: fight.withdraw, Assist: fight.assist, Defend: fight.defend,
    Modify: fight.modify, Roll: fight.roll_dice, WarPass: fight.war_pass,
    Deadline: _deadline,
}
#: actions of the setup, refused once the game is on
SETUP_ONLY: tuple[type[GameAction], ...] = (TakeMob, Buy, Uncontrolled, Start)
#: actions taken in the setup and later (a Mob without a Boss, a Crook without a place)
ANY_TIME: tuple[type[GameAction], ...] = (LoadDeck, ChooseBoss, Place, Drop)
#: what the player on turn may do and still pass for the bonus: the turn's steps (income,
#: draws, a drawn card's stats), the end of the turn, a shared win, and a Crook another
#: player offers ("take NO actions (not even free actions or special actions)")
NOT_ACTIONS: tuple[type[GameAction], ...] = (
    LoadDeck,
    Collect, Draw, CardStatsEntered, DeckEmpty, EndTurn, PassTurn, Share, Leave, AcceptCrook,
    RefuseCrook,
)


def decide(state: State, action: Mapping[str, Any] | GameAction, now: float) -> list[Event]:
    """The events ``action`` causes; ``IllegalAction`` says why it is refused."""
    act = ACTIONS.parse(action)
    require(not state.over, "The game is over: start a new game to play again.")
    if not isinstance(act, SETUP_ONLY + ANY_TIME):
        require(state.phase == "turn", "Finish the setup first: the host starts the game.")
    events = _HANDLERS[type(act)](state, act, now)
    if events and counts_as_action(state, act):
        events = [TurnActed(state.turn), *events]
    if events:
        b = emitter(state)
        b.emit(*events)
        events += turn_.after_out(b.state)
    return events


def counts_as_action(state: State, action: GameAction) -> bool:
    """Whether ``action`` is the first action of the player on turn (no pass bonus
    then): only what the seat whose turn it is does counts, never another player's
    Special, gift, ability or leaving."""
    return (state.phase == "turn" and state.step == "actions" and state.war is None
            and not state.acted and action.seat == state.turn
            and not isinstance(action, NOT_ACTIONS))


def outcome(state: State) -> Outcome | None:
    """The winners once a Mob controls enough Rackets at the end of a turn or Gang War."""
    if state.winners is None:
        return None
    detail = {"rackets": list(state.scores), "needed": state.options.rackets_to_win}
    return Outcome.of(state.winners, detail)


def next_deadline(state: State) -> float | None:
    """Crime Lords has no timed rules."""
    return None
