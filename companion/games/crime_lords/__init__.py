"""Crime Lords (Steve Jackson Games): the Mob ledger and referee.

``engine`` is this game's ``companion.games.engine.Engine``. Rules choices:
docs/rules/crime_lords.md; record actions: docs/records.md. Seats are listed clockwise;
play goes counterclockwise, so the player after seat ``s`` is seat ``s - 1``. Dice are rolled at the table and their
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
            stats {seat, card, stats} (a drawn card seen for the first time);
            deck_empty {seat}; leave {seat}; share {seat, agree} (one Racket short)
    attack: attack {seat, kind: recruit|takeover|hit, attacker, target, money?};
            protect {seat, card|null}; showdown {seat, amount, side?}; now {seat};
            withdraw {seat}; assist {seat, card}; defend {seat, card};
            modify {seat, value, why}; roll {seat, dice: [a, b], under?}
    war:    attack (kind hit) or pass {seat}
    free:   give {seat, to, money | card} (a Crook: an offer the receiver takes with
            accept_crook {seat, under} or calls off with refuse_crook {seat});
            play_special {seat, card};
            adjust {seat, what: money|unhappy|power|token, delta, why, card?}

Privacy: a treasury and a showdown hand leave only through ``secrets`` of their seat
(a hand is public once revealed); Specials are counted publicly, named privately.
``public_view`` keys: ``game``, ``title``, ``status``, ``seats``, ``phase``, ``step``,
``turn``, ``rackets_to_win``, ``mobs`` (per seat: ``mob``, ``boss``, ``crooks`` [{card,
name, power, own_power, resistance, unhappy, token, superior, lieutenant}],
``rackets`` [{card, name, income, type, district, token}], ``income``, ``payroll``,
``specials`` (a count), ``score``, ``out``), ``center``, ``attack`` (``None`` or
{seat, kind, attacker, target, defender, stage, breakdown [[why, value]], needed,
committed (seats only), revealed, aid, defense}), ``war``, ``last_roll``, ``winners``,
``log``, ``draws_owed``, ``pending`` (a drawn card waiting for its stats), ``offer`` (a
Crook offered), ``share`` (Mobs one short asked to share), ``auction``, ``victory``,
``draw_rule``, ``attacks`` (the attack builder's options of the player on turn, with
their terms), ``free_cards`` (cards not in play, by name). Mobs carry ``tree`` (the
Crooks depth first from the Boss). ``secrets`` is {money, auction_money, specials,
showdown (own hand or None)}; ``moves`` and ``waiting`` (``moves.py``) say what each
seat may do now and what the table waits for.

Modules: ``state`` (values, options, ``start``, ``upgrade_options``), ``actions`` (the
typed actions), ``events``, ``fold`` (``apply``, ``emitter``), ``decide`` (the action
table) with ``setup``, ``turn``, ``fight`` (the handlers), ``attack`` (success numbers,
the roll), ``mob`` (Power, control, pay-off, Unhappy markers, victory) and ``ledger``
(shared look-ups); ``moves`` (legal moves, what the table waits for); ``views``;
``inputs``; ``describe``.
"""

from __future__ import annotations

from companion.games.crime_lords.actions import ACTIONS, CardStatsEntered, LoadDeck
from companion.games.crime_lords.decide import decide, next_deadline, outcome
from companion.games.crime_lords.describe import OPTION_SPECS, describe
from companion.games.crime_lords.events import EVENT_TYPES, Event, StatsAsked
from companion.games.crime_lords.fold import apply
from companion.games.crime_lords.inputs import action_for_input
from companion.games.crime_lords.moves import moves, waiting
from companion.games.crime_lords.state import DEFAULT_OPTIONS, State, start, upgrade_options
from companion.games.crime_lords.views import (
    log,
    public_view,
    scores,
    secrets,
    signals,
    state_json,
)
from companion.games.engine import CardStats, Engine

engine: Engine[State, Event] = Engine(
    name="crime_lords",
    title="Crime Lords",
    aliases=("crimelords", "crime_lords_sjg", "crime-lords"),
    min_seats=2,
    max_seats=8,
    default_options=DEFAULT_OPTIONS,
    event_types=EVENT_TYPES,
    start=start,
    decide=decide,
    apply=apply,
    outcome=outcome,
    next_deadline=next_deadline,
    public_view=public_view,
    secrets=secrets,
    waiting=waiting,
    state_json=state_json,
    signals=signals,
    action_for_input=action_for_input,
    describe=describe,
    option_specs=OPTION_SPECS,
    actions=ACTIONS,
    moves=moves,
    log=log,
    scores=scores,
    upgrade_options=upgrade_options,
    features=frozenset({"card_stats"}),
    card_stats=CardStats(  # the table fills a drawn card's stats from the deck
        asked=lambda e: (e.seat, e.card) if isinstance(e, StatsAsked) else None,
        enter=lambda seat, card, stats: {"do": CardStatsEntered.do, "seat": seat,
                                         "card": card, "stats": dict(stats)},
        load=lambda cards: {"do": LoadDeck.do,
                            "cards": [{"card": c, "stats": dict(s)} for c, s in cards]},
    ),
)

__all__ = ["Event", "State", "engine", "outcome"]
