"""The Nasty 7 (*Die fiesen 7*): the count, skips, the 3-second rule, accusations, stacks.

A pure engine (``engine``, a ``companion.games.engine.Engine``); the rules and every
interpretation are in ``docs/rules/nasty7.md``. Every action is declared once in
``actions.py`` (``ACTIONS``; record lines without ``t``): ``play`` (the camera; the
host enters a card by hand as ``missed_card``), ``accuse`` (a seat, or the host entering a whole accusation), the host's
``rule``, ``withdraw``, ``mistake``, ``hesitation``, ``count_seen`` and corrections
(``reassign``, ``replace_card``, ``missed_card``), a seat's ``word`` (the nasty rule), the
camera's ``seen_beside`` and ``deadline`` (the 3-second rule, or the end of the game after a seat's last card).

The package, one role per module: ``state`` (``Options``, ``parse_options``,
``upgrade_options``, ``upgrade_action``, ``State``, ``start``, the count), ``actions``,
``events``, ``legality`` (who may do what now: one check per action, returning ``None`` or
the sentence a player reads; every refusal of the game is written there, once),
``decide`` (the events of an allowed action, the penalties; ``outcome``, ``next_deadline``),
``fold`` (``apply`` through ``_APPLY``), ``moves`` (what each seat and the host may do now, what
the table waits for), ``views`` (public view, secrets, log, scores, referee, signals),
``inputs`` (camera tags and buttons) and ``describe`` (sentences, option labels).
"""

from __future__ import annotations

from companion.games.engine import Engine
from companion.games.nasty7.actions import ACTIONS
from companion.games.nasty7.decide import decide, next_deadline, outcome
from companion.games.nasty7.describe import OPTION_SPECS, describe
from companion.games.nasty7.events import EVENT_TYPES, Event, SeenCardSettled
from companion.games.nasty7.fold import apply
from companion.games.nasty7.inputs import action_for_input
from companion.games.nasty7.moves import moves, waiting
from companion.games.nasty7.state import (
    CARDS,
    DEFAULT_OPTIONS,
    FIGURES,
    MISTAKES,
    PILE_REASONS,
    MistakeKind,
    Options,
    PileReason,
    State,
    number_for,
    start,
    upgrade_action,
    upgrade_options,
)
from companion.games.nasty7.views import log, public_view, scores, secrets, signals, state_json

__all__ = [
    "CARDS",
    "FIGURES",
    "MISTAKES",
    "PILE_REASONS",
    "Event",
    "MistakeKind",
    "PileReason",
    "Options",
    "State",
    "engine",
    "number_for",
]

engine: Engine[State, Event] = Engine(
    name="nasty7",
    title="The Nasty 7",
    aliases=("fiese7", "fiese_7", "die_fiesen_7", "the_nasty_7", "nasty_7"),
    # Die fiesen 7 (Jacques Zeimet, Drei Hasen in der Abendsonne, 2015), linked as
    # boardgamegeek.com/boardgame/186302/die-fiesen-7 by heimspiele.info's review
    bgg_id=186302,
    min_seats=2,
    max_seats=6,
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
    upgrade_action=upgrade_action,
    features=frozenset({"camera_demo", "dispute_clips", "editable_counts", "zone_growth",
                        "unread_landings", "pile_sight"}),
    # the host counted the card seen beside the pile: the camera's nearest zone grows
    feature_events={"zone_growth": lambda e: isinstance(e, SeenCardSettled) and e.counted},
)
