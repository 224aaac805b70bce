"""Crime Lords' views: public (everyone), per seat (that seat's phone) and replay (all),
and the buzzer/LED signals.

Hidden: each treasury (the rulebook lets players hide their Gs), Special card names and
showdown hands before the reveal. They leave only through ``seat_view`` of their seat,
and through ``state_json`` (replay knows everything).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from companion.games.base import SignalOut
from companion.games.cards import catalog
from companion.games.crime_lords.attack import breakdown, helper_term
from companion.games.crime_lords.events import (
    AttackRolled,
    Event,
    GameWon,
    GangWarStarted,
    PayOffDone,
    PlayerOut,
    TurnEnded,
    UnhappyChanged,
    WarTurnPassed,
)
from companion.games.crime_lords.fight import support_problem
from companion.games.crime_lords.ledger import cards_in_play
from companion.games.crime_lords.legality import draws_owed
from companion.games.crime_lords.mob import (
    cards_held,
    is_lieutenant,
    own_power,
    power,
    racket_score,
)
from companion.games.crime_lords.moves import attack_options
from companion.games.crime_lords.setup import auction_limit, auctioned
from companion.games.crime_lords.state import SETTING_UP, Attack, HelpSide, State
from companion.games.moves import Scores
from companion.games.words import plurals

KIND_LABELS = {"recruit": "Recruit", "takeover": "Take over", "hit": "Hit"}


def card_name(state: State, card: str) -> str:
    """A card as a player reads it (``State.label``): its entered name, else what is
    printed on it, never its id."""
    return state.label(card)


def _slot(card: str) -> str:
    try:
        return catalog("crime_lords").by_id(card).label()
    except KeyError:
        return card


_ID = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
#: a card's catalog slot ("Crook 07"), as older log lines hold it
_SLOT = re.compile(r"\b(?:Crook|Racket|Special|Mob) \d+\b")
_TERM = re.compile(r"^(you have|defender has) (.*)$")
_PLAYED = re.compile(r"played a Special \(([^)]*)\)")
#: a roll that could not succeed (below 2): "Rolled no roll, needed -43 or less: ..."
_NO_CHANCE = re.compile(r"Rolled ([^,]+), needed (-?\d+) or less: the attack (?:fails|succeeds)\.")


@functools.cache
def _by_slot() -> dict[str, str]:
    """The built-in catalog's cards by slot label ("Crook 07"); worked out once (it was
    built again for every log line drawn: a tenth of a game's walk)."""
    return {c.label(): c.id for c in catalog("crime_lords").cards}


def line(state: State, text: str) -> str:
    """A log line as the table reads it: cards by their names (``State.label``), not by
    id nor catalog slot ("Crook 07"); a played Special by name only when it has one;
    a roll that could not succeed said so; plurals written out ("1 Racket", not "1
    Racket(s)"); the first letter a capital."""
    slots = _by_slot()

    def played(m: re.Match[str]) -> str:
        card = slots.get(m.group(1), m.group(1))
        name = state.label(card)
        return "played a Special" if name in (state.unnamed(card), card) else \
            f"played a Special ({name})"

    def no_chance(m: re.Match[str]) -> str:
        if int(m.group(2)) >= 2:
            return m.group(0)
        rolled = "No dice" if m.group(1) == "no roll" else f"Rolled {m.group(1)}"
        return f"{rolled}: the attack could not succeed, so it does not count."

    text = _PLAYED.sub(played, text)
    text = _ID.sub(lambda m: state.label(m.group(0)) if _known_id(m.group(0)) else m.group(0),
                   text)
    text = _SLOT.sub(lambda m: state.label(slots[m.group(0)]) if m.group(0) in slots
                     else m.group(0), text)
    text = plurals(_NO_CHANCE.sub(no_chance, text))
    return text[:1].upper() + text[1:]


def _known_id(card: str) -> bool:
    try:
        catalog("crime_lords").by_id(card)
    except KeyError:
        return False
    return True


def _term(state: State, a: Attack, why: str) -> str:
    """One term of the success number for a shared screen: players by name, never "you"."""
    m = _TERM.match(why)
    if m:
        seat = a.seat if m.group(1) == "you have" else a.defender
        who = state.seats[seat] if seat is not None else "The defender"
        why = f"{who} has {m.group(2)}"
    return plurals(why)


def _tree(state: State, seat: int, crooks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Mob as a tree, depth first from the Boss (``depth`` 0), then unplaced Crooks."""
    mob = state.mobs[seat]
    by_card = {c["card"]: c for c in crooks}
    out: list[dict[str, Any]] = []

    def walk(card: str, depth: int) -> None:
        out.append({**by_card[card], "depth": depth})
        for sub in mob.subordinates(card):
            walk(sub.card, depth + 1)

    if mob.boss is not None:
        walk(mob.boss, 0)
    for c in mob.crooks:
        if c.superior is None and c.card != mob.boss:
            walk(c.card, 0)  # a Crook without a place, with those still under him
    return out


def _crooks(state: State, seat: int) -> list[dict[str, Any]]:
    mob = state.mobs[seat]
    return [
        {
            "card": c.card, "name": card_name(state, c.card),
            "power": power(state, seat, c.card),
            "own_power": own_power(state, seat, c.card),
            "resistance": state.card(c.card).resistance, "unhappy": c.unhappy,
            "token": c.token, "superior": c.superior, "boss": c.card == mob.boss,
            "lieutenant": is_lieutenant(mob, c.card),
            "placed": c.superior is not None or c.card == mob.boss,
            "weakness": list(state.card(c.card).weakness),
            "superior_name": card_name(state, c.superior) if c.superior else None,
            "ability": state.card(c.card).ability,
        }
        for c in mob.crooks
    ]


def _rackets(state: State, seat: int) -> list[dict[str, Any]]:
    out = []
    for h in state.mobs[seat].rackets:
        card = state.card(h.card)
        out.append({"card": h.card, "name": card_name(state, h.card), "income": card.income,
                    "type": card.type, "district": card.district,
                    "power": card.power, "token": h.token})
    return out


def _mob(state: State, seat: int) -> dict[str, Any]:
    mob = state.mobs[seat]
    rackets = _rackets(state, seat)
    crooks = _crooks(state, seat)
    return {
        "seat": seat, "name": state.seats[seat],
        "mob": line(state, mob.mob_name) if mob.mob_name else (
            state.label(mob.mob_card) if mob.mob_card else None),
        "boss_bonus": mob.boss_bonus, "boss": mob.boss, "crooks": crooks,
        "boss_name": card_name(state, mob.boss) if mob.boss else None,
        "tree": _tree(state, seat, crooks), "left": mob.left,
        "extra_draws": mob.extra_draws, "cards_held": cards_held(state, seat),
        "rackets": rackets, "income": sum(r["income"] for r in rackets),
        "payroll": sum(power(state, seat, c.card) for c in mob.crooks),
        "specials": len(mob.specials), "score": racket_score(state, seat), "out": mob.out,
    }


def _attack(state: State, a: Attack | None, reveal_hands: bool, *, plain: bool = False,
            ) -> dict[str, Any] | None:
    """The attack in progress; ``plain``: its terms as replay's JSON has always written
    them, else as shared screens say them (``_term``)."""
    if a is None:
        return None
    terms = breakdown(state, a) if plain else [(_term(state, a, w), v)
                                                 for w, v in breakdown(state, a)]
    view: dict[str, Any] = {
        "seat": a.seat, "kind": a.kind, "attacker": a.attacker, "target": a.target,
        "kind_label": KIND_LABELS[a.kind], "attacker_name": card_name(state, a.attacker),
        "target_name": card_name(state, a.target),
        "protector_name": card_name(state, a.protector) if a.protector else None,
        "waiting": [x for x, m in enumerate(state.mobs)
                    if not m.out and x not in {c for c, _, _ in a.committed}],
        "defender": a.defender, "stage": a.stage, "protector": a.protector, "war": a.war,
        "breakdown": [[why, value] for why, value in terms],
        "needed": sum(v for _, v in terms),
        "committed": sorted(seat for seat, _, _ in a.committed),
        "revealed": None if a.revealed is None else [
            {"seat": seat, "amount": amount, "side": side} for seat, amount, side in a.revealed
        ],
    }
    view["aid"] = _helpers(state, a, a.seat, "attack")
    view["defense"] = [] if a.defender is None else _helpers(state, a, a.defender, "defense")
    if reveal_hands:
        view["hands"] = [{"seat": s, "amount": n, "side": side} for s, n, side in a.committed]
    return view


def _helpers(state: State, a: Attack, seat: int, side: HelpSide) -> list[dict[str, Any]]:
    """The cards of ``seat`` that may still aid (``side`` "attack") or defend, with the
    term each would add."""
    out = []
    mob = state.mobs[seat]
    cards = [c.card for c in mob.crooks if c.token] + [h.card for h in mob.rackets if h.token]
    for card in cards:
        if support_problem(state, a, seat, card, side) is None:
            term = helper_term(state, a, seat, card, side)
            out.append({"card": card, "name": card_name(state, card), "value": term[1]})
    return out


def _status(state: State) -> str:
    if state.phase == "setup":
        return SETTING_UP
    if state.winners is not None:
        verb = " controls" if len(state.winners) == 1 else " share"
        return " and ".join(state.seats[x] for x in state.winners) + verb + " the city."
    who = state.seats[state.turn]
    if state.war is not None:
        return f"Gang War: {who}'s turn to Hit or pass."
    if state.attack is not None and state.options.wording == "v1":
        return f"{state.seats[state.attack.seat]} is attacking ({state.attack.stage})."
    if state.attack is not None:
        a = state.attack
        stage = {"protector": "the defender names a protector", "showdown": "the showdown",
                 "support": "aid, defence, then the dice"}[a.stage]
        return (f"{state.seats[a.seat]}: {KIND_LABELS[a.kind].lower()} "
                f"{card_name(state, a.target)} with {card_name(state, a.attacker)} ({stage}).")
    if state.pending is not None:
        return f"{state.seats[state.pending[0]]} drew a new card: enter its stats."
    if state.share is not None:
        return "Mobs one Racket short are deciding whether to share the win."
    if state.step == "collect":
        return f"{who}: collect income and pay off the gang."
    if state.options.wording == "v1":
        return f"{who}'s turn: draw and act."
    owed = draws_owed(state)
    if owed:
        return f"{who}: draw {owed} card{'s' if owed > 1 else ''}."
    return f"{who}'s turn: actions."


def public_view(state: State) -> dict[str, Any]:
    """What everyone may see (no treasury, no hidden hand); keys in the package docstring."""
    playing = cards_in_play(state)
    last = None if state.last_roll is None else {
        k: ([list(t) for t in v] if k == "breakdown" else (list(v) if k == "dice" else v))
        for k, v in state.last_roll
    }
    return {
        "game": "crime_lords", "title": "Crime Lords", "status": _status(state),
        "seats": list(state.seats), "phase": state.phase, "step": state.step,
        "turn": None if state.phase != "turn" else state.turn,
        "rackets_to_win": state.options.rackets_to_win,
        "mobs": [_mob(state, seat) for seat in range(len(state.seats))],
        "center": [
            {"card": c, "name": card_name(state, c), "kind": state.card(c).kind,
             "power": state.card(c).power + plus, "resistance": state.card(c).resistance,
             "income": state.card(c).income, "type": state.card(c).type,
             "district": state.card(c).district, "weakness": list(state.card(c).weakness)}
            for c, plus in state.center
        ],
        "attack": _attack(state, state.attack, False),
        "war": None if state.war is None else {
            "origin": state.war.origin, "seats": list(state.war.seats),
            "turn": state.war.turn, "passes": state.war.passes,
        },
        "last_roll": last,
        "winners": None if state.winners is None else list(state.winners),
        "log": log(state),
        "draws_owed": draws_owed(state), "drawn": state.drawn, "deck_empty": state.deck_empty,
        "pending": None if state.pending is None else {
            "seat": state.pending[0], "card": state.pending[1], "kind": state.pending[2],
            "name": state.label(state.pending[1]),
        },
        "offer": None if state.offer is None else {
            "from": state.offer[0], "to": state.offer[1], "card": state.offer[2],
            "name": card_name(state, state.offer[2]),
        },
        "share": None if state.share is None else {
            "asked": list(state.share[0]), "agreed": list(state.share[1]),
        },
        "auction": {kind: {"sold": auctioned(state, kind), "most": auction_limit(state, kind)}
                    for kind in ("crook", "racket")},
        "victory": state.options.victory, "draw_rule": state.options.draw_rule,
        "attacks": turn_attacks(state),
        "free_cards": [] if state.phase == "over" else [
            {"card": c.id, "name": card_name(state, c.id), "kind": c.kind,
             "known": state.known(c.id)}
            for c in catalog("crime_lords").cards if c.id not in playing
        ],
    }


def secrets(state: State, seat: int) -> dict[str, Any]:
    """Only this seat's private data: its money, bidding money, Specials by name and its
    showdown hand (before the reveal)."""
    mob = state.mobs[seat]
    hand = None
    if state.attack is not None:
        hand = next(
            ({"amount": n, "side": side} for s, n, side in state.attack.committed if s == seat),
            None,
        )
    return {
        "money": mob.money, "auction_money": mob.auction_money, "showdown": hand,
        "specials": [{"card": c, "name": state.label(c)} for c in mob.specials],
    }


def log(state: State) -> list[str]:
    """The game's recent lines, oldest first, as the table reads them (``line``)."""
    return [line(state, x) for x in state.log[-12:]]


def scores(state: State) -> Scores | None:
    """Each Mob's Racket count toward victory (with the type and district bonuses)."""
    if state.phase == "setup":
        return None
    totals = tuple(float(racket_score(state, x)) for x in range(len(state.seats)))
    target = state.options.rackets_to_win if state.options.victory == "rackets" else None
    return Scores(totals, unit="Rackets", target=target)


def turn_attacks(state: State) -> list[dict[str, Any]]:
    """Every attack the player on turn (or at war) may announce now, with its success
    number before the showdown and aid, and each term: the attack builder's numbers."""
    if state.phase != "turn" or state.attack is not None or state.pending is not None:
        return []
    seat = state.war.turn if state.war is not None else state.turn
    if state.mobs[seat].out or state.offer is not None:
        return []
    if state.war is None and (state.step != "actions" or draws_owed(state)):
        return []
    out: list[dict[str, Any]] = []
    for kind, attacker, target, a in attack_options(state, seat):
        terms = breakdown(state, a)
        out.append({
            "kind": kind, "attacker": attacker, "target": target,
            "attacker_name": card_name(state, attacker),
            "target_name": card_name(state, target),
            "owner": a.defender, "terms": [[w, v] for w, v in terms],
            "needed": sum(v for _, v in terms),
        })
    return out


def state_json(state: State) -> dict[str, Any]:
    """Everything, for ``companion replay --json``."""
    view = public_view(state)
    view["attack"] = _attack(state, state.attack, True, plain=True)
    for shown, mob in zip(view["mobs"], state.mobs, strict=True):  # replay's names, as typed
        shown["mob"] = mob.mob_name or (_slot(mob.mob_card) if mob.mob_card else None)
    view["money"] = [m.money for m in state.mobs]
    view["specials"] = [list(m.specials) for m in state.mobs]
    view["discard"] = list(state.discard)
    view["log"] = list(state.log)
    view["ledger"] = {state.seats[seat]: _ledger(state, seat) for seat in range(len(state.seats))}
    return view


def _ledger(state: State, seat: int) -> dict[str, Any]:
    """One Mob keyed by card, so a record's expectation can name just what it checks."""
    mob = state.mobs[seat]
    return {
        "money": mob.money, "score": racket_score(state, seat), "boss": mob.boss,
        "out": mob.out, "rackets": [h.card for h in mob.rackets],
        "crooks": {
            c.card: {"power": power(state, seat, c.card), "unhappy": c.unhappy,
                     "superior": c.superior, "token": c.token}
            for c in mob.crooks
        },
    }


def signals(state: State, events: Sequence[Event]) -> list[SignalOut]:
    """Buzzer/LED cues: the turn passing, attacks that succeed or fail, penalties, the end."""
    out: list[SignalOut] = []
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
