"""Crime Lords (Steve Jackson Games): the Mob ledger and referee.

The engine follows ``companion.games.base.Engine``. Rules choices: docs/rules/crime_lords.md;
record actions: docs/records.md. Seats are listed clockwise; play goes counterclockwise,
so the player after seat ``s`` is seat ``s - 1``. Dice are rolled at the table and their
values are part of the ``roll`` action; card stats come with the first action that
brings a card into play (the table fills them from the deck).

Actions (a record line without ``t``)::

    setup:  take_mob {seat, card, stats: {boss_bonus, name}}; buy {seat, card, price, stats}
            uncontrolled {card, stats}; choose_boss {seat, card}; place {seat, card, under}
            start {first}
    turn:   collect {seat, pay_order?}; draw {seat, card, stats?}; end_turn {seat};
            pass_turn {seat}; move {seat, card, under}; drop {seat, card};
            visit {seat, card, racket}; retire_boss {seat, card};
            claim {seat, from, rackets, tokens?} (after wiping out a Mob)
    attack: attack {seat, kind: recruit|takeover|hit, attacker, target, money?};
            protect {seat, card|null}; showdown {seat, amount, side?}; now {seat};
            withdraw {seat}; assist {seat, card}; defend {seat, card};
            modify {seat, value, why}; roll {seat, dice: [a, b], under?}
    war:    attack (kind hit) or pass {seat}
    free:   give {seat, to, money | card}; play_special {seat, card};
            adjust {seat, what: money|unhappy|power|token, delta, why, card?}

Privacy: a treasury and a showdown hand leave only through ``seat_view`` of their seat
(a hand is public once revealed); Specials are counted publicly, named privately.
``public_view`` keys: ``game``, ``title``, ``status``, ``seats``, ``phase``, ``step``,
``turn``, ``rackets_to_win``, ``mobs`` (per seat: ``mob``, ``boss``, ``crooks`` [{card,
name, power, own_power, resistance, unhappy, token, superior, lieutenant}],
``rackets`` [{card, name, income, type, district, token}], ``income``, ``payroll``,
``specials`` (a count), ``score``, ``out``), ``center``, ``attack`` (``None`` or
{seat, kind, attacker, target, defender, stage, breakdown [[why, value]], needed,
committed (seats only), revealed}), ``war``, ``last_roll``, ``winners``, ``log``.
``seat_view`` adds ``me``: {seat, money, specials, showdown (own hand or None)}.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from companion.games import crime_lords_fight as fight
from companion.games import crime_lords_setup as setup_
from companion.games import crime_lords_turn as turn_
from companion.games import crime_lords_views as views
from companion.games.base import (
    Action,
    Engine,
    Outcome,
    Setup,
    check_options,
    check_seats,
    get_str,
    require,
)
from companion.games.crime_lords_events import (
    EVENT_TYPES,
    AttackRolled,
    GameWon,
    GangWarStarted,
    PayOffDone,
    PlayerOut,
    TurnEnded,
    UnhappyChanged,
    WarTurnPassed,
)
from companion.games.crime_lords_fold import apply as _apply
from companion.games.crime_lords_rules import racket_score
from companion.games.crime_lords_state import Mob, State, parse_options

name = "crime_lords"
aliases: tuple[str, ...] = ("crimelords", "crime_lords_sjg", "crime-lords")
title = "Crime Lords"
min_seats = 2
max_seats = 8
default_options: Mapping[str, Any] = {
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
}
event_types: Mapping[str, type] = EVENT_TYPES

Handler = Callable[[State, Action], list[Any]]
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
}
SETUP_ONLY = ("take_mob", "buy", "uncontrolled", "start")
ANY_TIME = ("choose_boss", "place")


def new_game(setup: Setup) -> State:
    """Before the auction: every player with the bidding money and no cards."""
    this = cast(Engine, sys.modules[__name__])
    check_seats(this, setup)
    options = parse_options(check_options(this, setup.options), setup.n_seats)
    mob = Mob(auction_money=options.auction_money)
    return State(seats=tuple(setup.seats), options=options, mobs=tuple(mob for _ in setup.seats))


def decide(state: State, action: Action, now: float) -> list[Any]:
    """The events ``action`` causes; ``IllegalAction`` says why it is refused."""
    do = get_str(action, "do")
    require(do in ACTIONS, f"Crime Lords has no action {do!r}: use one of {', '.join(ACTIONS)}.")
    require(state.phase != "over", "The game is over: start a new game to play again.")
    if do not in SETUP_ONLY and do not in ANY_TIME:
        require(state.phase == "turn", "Finish the setup first (start).")
    return ACTIONS[do](state, action)


def apply(state: State, event: Any) -> State:
    """The state after ``event``."""
    return _apply(state, event)


def outcome(state: State) -> Outcome | None:
    """The winners once a Mob controls enough Rackets at the end of a turn or Gang War."""
    if state.winners is None:
        return None
    detail = {"rackets": list(state.scores), "needed": state.options.rackets_to_win}
    return Outcome.of(state.winners, detail)


def next_deadline(state: State) -> float | None:
    """Crime Lords has no timed rules."""
    return None


def public_view(state: State) -> dict[str, Any]:
    """What everyone may see (no treasury, no hidden hand); keys in the module docstring."""
    return views.public_view(state)


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus ``me``: the seat's money, Specials and showdown hand."""
    return views.seat_view(state, seat)


def state_json(state: State) -> dict[str, Any]:
    """Everything, for ``companion replay --json``."""
    return views.state_json(state)


def score(state: State, seat: int) -> int:
    return racket_score(state, seat)


def signals(state: State, events: Sequence[Any]) -> list[tuple[str, int | None]]:
    """Buzzer/LED cues: the turn passing, attacks that succeed or fail, penalties, the end."""
    out: list[tuple[str, int | None]] = []
    for event in events:
        if isinstance(event, TurnEnded):
            out.append(("turn", event.next))
        elif isinstance(event, WarTurnPassed | GangWarStarted):
            out.append(("turn", event.to if isinstance(event, WarTurnPassed) else event.turn))
        elif isinstance(event, AttackRolled):
            out.append(("upheld" if event.success else "not_upheld", event.seat))
        elif isinstance(event, UnhappyChanged) and event.delta > 0:
            out.append(("penalty", event.seat))
        elif isinstance(event, PlayerOut):
            out.append(("penalty", event.seat))
        elif isinstance(event, PayOffDone):
            out.append(("card", event.seat))
        elif isinstance(event, GameWon):
            out.append(("game_over", None))
    return out


def action_for_input(state: State, inp: Mapping[str, Any]) -> Action | None:
    """A tag seen in the "center" zone is a draw (the table adds the deck's stats); the
    "next" button of the seat on turn ends its turn, or passes its Gang War turn."""
    if state.phase != "turn" or state.attack is not None:
        return None
    if inp.get("kind") == "tag_seen" and inp.get("zone") == "center":
        card = inp.get("card")
        if state.step != "actions" or not isinstance(card, str) or setup_.in_play(state, card):
            return None
        return {"do": "draw", "seat": state.turn, "card": card}
    if inp.get("kind") == "button" and inp.get("role") == "next":
        if inp.get("seat") not in (None, state.turn):
            return None
        if state.war is not None:
            return {"do": "pass", "seat": state.turn}
        if state.step == "collect":
            return {"do": "collect", "seat": state.turn}
        return {"do": "end_turn", "seat": state.turn}
    return None
