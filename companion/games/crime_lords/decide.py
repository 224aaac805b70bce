"""Crime Lords' ``start`` and ``decide``: the action table and the checks every action shares.

Each action's handler lives with its topic: ``setup`` (Mobs, the auction, Bosses),
``turn`` (income, pay-off, draws, moves, gifts), ``fight`` (attacks and Gang War).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.games.base import Action, Setup, get_str, require
from companion.games.crime_lords import fight
from companion.games.crime_lords import setup as setup_
from companion.games.crime_lords import turn as turn_
from companion.games.crime_lords.events import Event
from companion.games.crime_lords.state import Mob, State, parse_options

Handler = Callable[[State, Action], list[Event]]
ACTIONS: dict[str, Handler] = {
    "take_mob": lambda s, a: setup_.setup_action(s, "take_mob", a),
    "buy": lambda s, a: setup_.setup_action(s, "buy", a),
    "uncontrolled": lambda s, a: setup_.setup_action(s, "uncontrolled", a),
    "start": lambda s, a: setup_.setup_action(s, "start", a),
    "choose_boss": setup_.choose_boss,
    "place": setup_.place,
    "collect": turn_.collect,
    "draw": turn_.draw,
    "end_turn": turn_.end_turn,
    "pass_turn": turn_.pass_turn,
    "move": turn_.move,
    "drop": turn_.drop,
    "visit": turn_.visit,
    "retire_boss": turn_.retire_boss,
    "claim": turn_.claim,
    "give": turn_.give,
    "play_special": turn_.play_special,
    "adjust": turn_.adjust,
    "attack": fight.announce,
    "protect": fight.protect,
    "showdown": fight.showdown,
    "now": fight.now,
    "withdraw": fight.withdraw,
    "assist": lambda s, a: fight.support(s, a, "attack"),
    "defend": lambda s, a: fight.support(s, a, "defense"),
    "modify": fight.modify,
    "roll": fight.roll_dice,
    "pass": fight.war_pass,
    "stats": turn_.card_stats,
    "deck_empty": turn_.deck_empty,
    "accept_crook": turn_.accept_crook,
    "refuse_crook": turn_.refuse_crook,
    "leave": turn_.leave,
    "share": turn_.share,
}
SETUP_ONLY = ("take_mob", "buy", "uncontrolled", "start")
ANY_TIME = ("choose_boss", "place")


def start(setup: Setup) -> State:
    """Before the auction: every player with the bidding money and no cards."""
    options = parse_options(setup.options, setup.n_seats)
    mob = Mob(auction_money=options.auction_money)
    return State(seats=tuple(setup.seats), options=options, mobs=tuple(mob for _ in setup.seats))


def decide(state: State, action: Action, now: float) -> list[Event]:
    """The events ``action`` causes; ``IllegalAction`` says why it is refused."""
    do = get_str(action, "do")
    require(do in ACTIONS, f"Crime Lords has no action {do!r}: use one of {', '.join(ACTIONS)}.")
    require(state.phase != "over", "The game is over: start a new game to play again.")
    if do not in SETUP_ONLY and do not in ANY_TIME:
        require(state.phase == "turn", "Finish the setup first (start).")
    return ACTIONS[do](state, action)
