"""The Nasty 7: what the table, a seat's phone, the referee and the buzzer are told.

``public_view(state)`` (the table page; never the running count during play):

- ``game`` ``"nasty7"``, ``status`` (what the table waits for in one sentence, e.g. ``"Ben
  to play."``: ``moves.waiting(state).why``)
- ``seats``: ``[{"seat", "name", "cards", "to_play", "skips", "played_last"}]``
- ``turn`` (seat to play, ``None`` once over), ``skipping`` (seat that must skip, or
  ``None``), ``round`` (1, 2, ...), ``round_starter``
- ``pile`` (cards on it), ``top`` (card id on top or ``None``), ``last_player``
- ``word`` (what phones say this round), ``word_chooser`` (nasty rule: the seat that
  may still choose the word, or ``None``)
- ``deadline`` (game time of the hesitation deadline, or ``None``) and ``timer``
  ``{"from", "deadline", "seconds"}`` to draw the bar, or ``None``
- ``accusation``: ``{"by": [seats], "against": seat}`` while one waits, else ``None``
- ``revealed_count`` (the correct number, only while an accusation waits or right after
  a penalty, else ``None``) and ``revealed`` ``{"count", "figures", "why", "seat"}``;
  ``why`` is ``accusation``, ``hesitation``, ``wrong_number``, ``wrong_word``,
  ``spoke_on_gun``, ``out_of_turn``, ``upheld`` or ``not_upheld``
- ``out_of_game`` (cards left in the box), ``over``, ``winners`` (seats)
- ``top_name`` (the top card's printed name), ``cards`` ``[{"id", "name"}]`` (the kinds in
  this game's deck, for the host's "the card was …" buttons), ``mistakes``
  ``[{"kind", "label"}]`` (named as in the rules), ``hesitation_s``
- ``correctable``: the last card may still be reassigned or replaced (nothing happened
  after it); ``last_move``: the last thing that happened, in words (what Undo takes back)
- ``dispute``: the latest decided hesitation or accusation, for its replay clip:
  ``{"n", "kind", "seat", "name", "start", "end", "seconds", "upheld", "alleged", "title"}``
  (``start``/``end`` in game seconds), or ``None``
- ``accusation`` also has ``kind`` / ``alleged`` (what is alleged, in words) and ``gap``
  (for a hesitation: seconds between the card before and the accused card)
- ``seen_beside``: the cards seen beside the pile that wait for the host's answer, oldest
  first: ``[{"seat", "name", "card", "card_name", "at", "clock"}]`` (``seat``/``name``:
  who was to play when it landed; ``at`` game seconds, ``clock`` as "0:07")
- ``unread``: the cards the camera saw land on the pile but could not read, waiting for
  the host to name them, oldest first: ``[{"seat", "name", "at", "clock"}]``
- ``untimed``: the last card was entered by hand and the host rules on hesitation (no
  automatic deadline: ``hand_entry_timing`` ``"host_rules"``)
- ``glare``: the camera says a lamp's glare hides part of the pile, and the host rules on
  hesitation meanwhile (no automatic deadline: ``glare_timing`` ``"host_rules"``)

``secrets(state, seat)`` is empty: nobody knows the order of a stack, not even its owner,
and the card counts are public. A phone reads the public view, its ``moves`` and its
``attention`` (``companion.games.nasty7.moves``). ``log`` is the recent lines in words,
``scores`` each stack (cards left; the fewest wins). ``state_json`` is the referee's view
(it includes the running count).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import IllegalAction, SignalOut
from companion.games.moves import Scores
from companion.games.nasty7.events import (
    AccusationWithdrawn,
    CardPlayed,
    CardReplaced,
    Event,
    GameEnded,
    MissedCardAdded,
    PileTaken,
)
from companion.games.nasty7.fold import ALLEGED
from companion.games.nasty7.legality import seat_reason, word_chooser
from companion.games.nasty7.moves import MISTAKE_LABELS, clock_time, deck, waiting
from companion.games.nasty7.state import (
    MISTAKES,
    Dispute,
    State,
    card_name,
    deadline,
    number_for,
)
from companion.games.words import plurals


def public_view(state: State) -> dict[str, Any]:
    """The table view: stacks, turn, timer; the count only on an accusation or penalty."""
    reveal = state.reveal
    due = deadline(state)
    return {
        "game": "nasty7",
        "status": waiting(state).why,
        "seats": [_seat_row(state, s) for s in range(state.n_seats)],
        "turn": None if state.over else state.turn,
        "skipping": None if state.over else state.skipped,
        "round": state.round_no,
        "round_starter": state.round_starter,
        "pile": len(state.pile),
        "top": state.pile[-1] if state.pile else None,
        "last_player": state.last_player,
        "word": state.word,
        "word_chooser": word_chooser(state),
        "deadline": due,
        "timer": None
        if due is None or state.timer_from is None
        else {"from": state.timer_from, "deadline": due, "seconds": state.options.hesitation_s},
        "accusation": _accusation(state),
        "revealed_count": None if reveal is None else number_for(reveal.figures),
        "revealed": None
        if reveal is None
        else {
            "count": number_for(reveal.figures),
            "figures": reveal.figures,
            "why": reveal.why,
            "seat": reveal.seat,
        },
        "out_of_game": state.out_of_game,
        "over": state.over,
        "winners": list(state.winners),
        "top_name": card_name(state.pile[-1]) if state.pile else None,
        "cards": [{"id": c, "name": card_name(c)} for c in deck(state)],
        "dispute": _dispute(state, state.dispute),
        "last_move": state.log[-1] if state.log else "",
        "correctable": state.last_card is not None and state.accusation is None,
        "mistakes": [{"kind": k, "label": MISTAKE_LABELS[k]} for k in MISTAKES],
        "hesitation_s": state.options.hesitation_s,
        "seen_beside": [
            {"seat": c.seat, "name": state.seats[c.seat], "card": c.card,
             "card_name": card_name(c.card), "at": c.at, "clock": clock_time(c.at)}
            for c in state.seen_beside
        ],
        "untimed": state.untimed and not state.over,
        "glare": state.blind and not state.over and not state.options.glare_clock,
        "unread": [
            {"seat": c.seat, "name": state.seats[c.seat], "at": c.at, "clock": clock_time(c.at)}
            for c in state.unread
        ],
    }


def _accusation(state: State) -> dict[str, Any] | None:
    acc = state.accusation
    if acc is None:
        return None
    landed = state.landed
    gap = round(landed[-1] - landed[-2], 3) if len(landed) > 1 else None
    return {
        "by": list(acc.by),
        "against": acc.against,
        "kind": acc.kind,
        "alleged": ALLEGED.get(acc.kind, ""),
        "gap": gap if acc.kind == "hesitation" else None,
    }


def _dispute(state: State, d: Dispute | None) -> dict[str, Any] | None:
    """The latest dispute, for its clip: who, when it started and was decided, the gap."""
    if d is None:
        return None
    name = state.seats[d.seat]
    if d.kind == "hesitation":
        title = f"{name}: no card within {state.options.hesitation_s:g} s"
    else:
        alleged = f" of {ALLEGED[d.alleged]}" if d.alleged in ALLEGED else ""
        ruled = "upheld" if d.upheld else "not upheld"
        gap = f" ({d.seconds:.1f} s after the card before)" if d.seconds is not None else ""
        title = f"{name} accused{alleged}: {ruled}{gap}"
    return {
        "n": d.n,
        "kind": d.kind,
        "seat": d.seat,
        "name": name,
        "start": d.start,
        "end": d.end,
        "seconds": d.seconds,
        "upheld": d.upheld,
        "alleged": d.alleged,
        "title": title,
    }


def secrets(state: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` may see: nothing. Stacks are counted in public and nobody (the
    player included) knows the order of a stack; a seat's phone reads the public view,
    its ``moves`` (accuse) and ``attention`` (its turn, the phone word)."""
    why = seat_reason(state, seat)
    if why is not None:
        raise IllegalAction(why)
    return {}


def log(state: State) -> list[str]:
    """The game's recent lines in words, oldest first ("Ben played Twin racketeers")."""
    return [plurals(line[:1].upper() + line[1:]) for line in state.log]


def scores(state: State) -> Scores:
    """Each player's stack: the cards still to play (the fewest wins; 0 has won)."""
    return Scores(tuple(float(n) for n in state.stacks), unit="cards", lower_wins=True)


def state_json(state: State) -> dict[str, Any]:
    """Everything, for ``companion replay --json`` and the host's referee view."""
    acc = state.accusation
    return {
        "figures": state.figures,
        "count": state.count,
        "pile": len(state.pile),
        "pile_cards": list(state.pile),
        "pile_serials": list(state.pile_serials),
        "stacks": list(state.stacks),
        "next": state.turn,
        "skipping": state.skipped,
        "last_player": state.last_player,
        "round": state.round_no,
        "round_starter": state.round_starter,
        "word": state.word,
        "word_set": state.word_set,
        "accusation": None if acc is None else {"by": list(acc.by), "against": acc.against},
        "finisher": state.finisher,
        "deadline": deadline(state),
        "plays": state.plays,
        "out_of_game": state.out_of_game,
        "over": state.over,
        "winners": list(state.winners),
    }


def signals(state: State, events: Sequence[Event]) -> list[SignalOut]:
    """Buzzer/LED signals for ``events`` that led to ``state`` (names from base.SIGNALS)."""
    out: list[SignalOut] = []
    for e in events:
        if isinstance(e, CardPlayed | MissedCardAdded):
            out.append(("card", e.seat))
        elif isinstance(e, CardReplaced) and state.last_player is not None:
            out.append(("card", state.last_player))
        elif isinstance(e, PileTaken):
            if e.why == "not_upheld":
                out.extend(("not_upheld", s) for s in e.seats)
            else:
                kind = e.why if e.why in ("hesitation", "upheld") else "penalty"
                out.append((kind, e.offender))
        elif isinstance(e, GameEnded):
            out.extend(("game_over", s) for s in e.winners)
    moved = any(
        isinstance(e, CardPlayed | CardReplaced | MissedCardAdded | PileTaken | AccusationWithdrawn)
        for e in events
    )
    if moved and not state.over and state.accusation is None:
        out.append(("turn", state.turn))
    return out


def _seat_row(state: State, seat: int) -> dict[str, Any]:
    live = not state.over
    return {
        "seat": seat,
        "name": state.seats[seat],
        "cards": state.stacks[seat],
        "to_play": live and state.accusation is None and state.turn == seat,
        "skips": live and state.skipped == seat and state.turn != seat,
        "played_last": state.last_player == seat,
    }
