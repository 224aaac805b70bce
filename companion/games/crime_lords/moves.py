"""Crime Lords: what each seat (or the host) may do now, and what the table waits for.

``moves(state, seat)`` lists action templates with closed choices of legal values (card
names, never ids) and open values (money) with their bounds; a move that exists but is
not allowed now says why. What a player types or the host enters has a template too
(``entries``: a card's printed stats, an ability's effect, the setup). ``decide`` stays
the judge (tests/games/crime_lords/test_moves.py keeps the two in step).
"""

from __future__ import annotations

from typing import Any

from companion.games.base import IllegalAction
from companion.games.cards import catalog
from companion.games.crime_lords.actions import Collect, Draw, EndTurn
from companion.games.crime_lords.attack import KINDS, breakdown, likes
from companion.games.crime_lords.entries import (
    KIND_WORDS,
    NEW_WORDS,
    ability_moves,
    card_choices,
    next_new,
    one_card,
    ready_cards,
    setup_moves,
    stats_moves,
    stats_param,
)
from companion.games.crime_lords.fight import check_target, support_problem
from companion.games.crime_lords.ledger import cards_in_play
from companion.games.crime_lords.legality import (
    boss_reason,
    drawn_all_reason,
    draws_owed,
    draws_reason,
    drop_reason,
    leave_reason,
    offer_reason,
    pass_reason,
    pending_reason,
    retire_reason,
    share_reason,
    turn_reason,
    war_turn_reason,
)
from companion.games.crime_lords.mob import (
    is_lieutenant,
    own_power,
    placed,
    placement_problem,
    places_for,
    power,
)
from companion.games.crime_lords.state import SETTING_UP, Attack, AttackKind, HelpSide, State
from companion.games.moves import Choice, Move, Param, Waiting
from companion.games.words import listed

VERBS = {"recruit": "recruits", "takeover": "takes over", "hit": "hits"}
#: how the phone's card heads each kind of attack (a group of moves)
ATTACK_GROUPS = {"recruit": "recruit a Crook", "takeover": "take over a Racket",
                 "hit": "hit a Crook"}


# --- what the table waits for ---------------------------------------------------------


def waiting(state: State) -> Waiting:
    """Who must act now, on what, and why (one sentence with players' names)."""
    names = state.seats
    if state.phase == "setup":
        return _setup_waiting(state)
    if state.winners is not None:
        verb = " controls" if len(state.winners) == 1 else " share"
        return Waiting((), "over", listed(names[x] for x in state.winners) + verb
                       + " the city.")
    if state.attack is not None:
        return _attack_waiting(state, state.attack)
    if state.pending is not None:
        who = state.pending[0]
        return Waiting((who,), "stats", f"{names[who]} drew a new card: its stats are needed.",
                       asks={who: "Enter the stats printed on the card you drew: your turn "
                             "goes on once they are in."})
    if state.offer is not None:
        giver, to, card = state.offer
        return Waiting((to,), "offer", f"{names[giver]} offers {state.label(card)} to "
                       f"{names[to]}: {names[to]} takes him or says no.")
    if state.share is not None:
        asked = tuple(x for x in state.share[0] if x not in state.share[1])
        return Waiting(asked, "share", listed(names[x] for x in asked)
                       + " decide whether to share the win.")
    bossless = tuple(x for x, m in enumerate(state.mobs)
                     if not m.out and m.boss is None and m.crooks)
    asks = {x: "Choose a new Boss (any Crook of yours)." for x in bossless}
    if state.war is not None:
        who = state.war.turn
        return Waiting(tuple(sorted({who, *bossless})), "war",
                       f"Gang War: {names[who]} attempts one Hit or passes.", asks=asks)
    return Waiting(tuple(sorted({state.turn, *bossless})), "turn", _turn_why(state), asks=asks)


def _setup_waiting(state: State) -> Waiting:
    """The host enters the setup; a player whose Mob still needs its Boss or a Crook
    placed is waited on too (those are the players' own moves: the host's Start waits
    for them)."""
    asks = {seat: ask for seat in range(len(state.mobs))
            if (ask := _setup_ask(state, seat)) is not None}
    return Waiting(tuple(asks), "setup", SETTING_UP, host=True, asks=asks)


def _setup_ask(state: State, seat: int) -> str | None:
    """What ``seat`` still has to do in the setup (its phone's sentence), or None."""
    mob = state.mobs[seat]
    if not mob.crooks:
        return None
    if mob.boss is None:
        return "Choose your Boss (any of your Crooks): the others go around him."
    loose = [c.card for c in mob.crooks if c.card != mob.boss and c.superior is None]
    if not loose:
        return None
    fit = [c for c in loose if places_for(state, seat, c)]
    stuck = [c for c in loose if c not in fit]
    out = []
    if fit:
        out.append(f"Place {_names(state, fit)} under a superior.")
    if stuck:
        out.append(f"No Crook of your Mob can control {_names(state, stuck)}: drop "
                   f"{'him' if len(stuck) == 1 else 'them'} to the center, or rearrange "
                   "your Mob.")
    return " ".join(out)


def _names(state: State, cards: list[str]) -> str:
    labels = [state.label(c) for c in cards]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def _turn_why(state: State) -> str:
    who = state.seats[state.turn]
    if state.step == "collect":
        return f"{who} collects income and pays off the gang."
    owed = draws_owed(state)
    if owed:
        return f"{who} draws {owed} card{'s' if owed > 1 else ''}."
    return f"{who}'s turn: attacks, moves, or the end of the turn."


def _attack_waiting(state: State, a: Attack) -> Waiting:
    names = state.seats
    target = state.label(a.target)
    if a.stage == "protector" and a.defender is not None:
        return Waiting((a.defender,), "protector",
                       f"{names[a.defender]} names a protector for {target}.")
    if a.stage == "showdown":
        done = {x for x, _, _ in a.committed}
        seats = tuple(x for x, m in enumerate(state.mobs) if not m.out and x not in done)
        return Waiting(seats, "showdown", "Showdown: "
                       + listed(names[x] for x in seats)
                       + (" still put a hand down." if len(seats) > 1
                          else " still puts a hand down."),
                       asks={x: "Put your showdown hand on the table: an amount"
                             + ("" if x in (a.seat, a.defender) else " and a side")
                             + " (0 is fine)." for x in seats})
    if sum(v for _, v in breakdown(state, a)) < 2:
        return Waiting((a.seat,), "roll", f"{names[a.seat]} adds aid if any: as it stands "
                       f"the attack on {target} cannot succeed, and no dice are rolled.")
    return Waiting((a.seat,), "roll", f"{names[a.seat]} adds aid if any, then rolls the dice "
                   f"against {target}.")


# --- moves ----------------------------------------------------------------------------


def moves(state: State, seat: int | None) -> list[Move]:
    """What ``seat`` (None: the host) may do now."""
    if state.over:
        return []
    if seat is None:
        return setup_moves(state) if state.phase == "setup" else stats_moves(state, None)
    if not 0 <= seat < len(state.seats) or state.mobs[seat].out:
        return []
    out = _boss_and_places(state, seat)
    if state.phase == "setup":
        return out
    if state.attack is not None:
        return (out + _attack_moves(state, seat, state.attack) + _specials(state, seat)
                + ability_moves(state, seat))
    out += stats_moves(state, seat) + _answers(state, seat)
    if state.war is not None:
        out += _war_moves(state, seat)
    else:
        out += _turn_moves(state, seat)
    return out + _free_moves(state, seat) + ability_moves(state, seat)


def _boss_and_places(state: State, seat: int) -> list[Move]:
    mob = state.mobs[seat]
    fixed = {"seat": seat}
    if mob.boss is None:
        if not mob.crooks:
            return []
        return [Move("choose_boss", "Choose a Boss", fixed,
                     (one_card("card", "Which Crook?", state, [c.card for c in mob.crooks]),))]
    out = []
    for crook in mob.crooks:
        if crook.card == mob.boss or (state.phase != "setup" and crook.superior is not None):
            continue
        unders = places_for(state, seat, crook.card)
        label = f"Place {state.label(crook.card)}"
        if unders:
            out.append(Move("place", label, {**fixed, "card": crook.card},
                            (one_card("under", "Under whom?", state, unders),), group="place"))
            continue
        out.append(Move("place", label, {**fixed, "card": crook.card}, group="place",
                        allowed=False, why="No Crook of your Mob has the Power and the "
                        "room to control him."))
        if state.phase == "setup" and drop_reason(state, seat, crook.card) is None:
            out.append(Move("drop", f"Drop {state.label(crook.card)} to the center",
                            {**fixed, "card": crook.card}, group="drop"))
    return out


def _answers(state: State, seat: int) -> list[Move]:
    """A Crook offered to or by this seat; a shared win to agree to."""
    out: list[Move] = []
    fixed = {"seat": seat}
    if state.offer is not None and seat in state.offer[:2]:
        giver, to, card = state.offer
        if seat == to:
            strength = own_power(state, giver, card)
            unders = [u for u in placed(state.mobs[to])
                      if placement_problem(state, to, strength, u) is None]
            take = Move("accept_crook", f"Take {state.label(card)}", fixed,
                        (one_card("under", "Under whom?", state, unders),))
            if not unders:
                take = Move("accept_crook", f"Take {state.label(card)}", fixed, allowed=False,
                            why="No Crook of your Mob has the Power and the room for him.")
            out.append(take)
        out.append(Move("refuse_crook", "Say no" if seat == to else "Take the offer back",
                        fixed))
    if state.share is not None and seat in state.share[0] and seat not in state.share[1]:
        out.append(Move("share", "Share the win?", fixed, (Param(
            "agree", "Share the win?",
            choices=(Choice(True, "Yes, share the win"), Choice(False, "No, play on"))),)))
    return out


def _attack_moves(state: State, seat: int, a: Attack) -> list[Move]:
    fixed = {"seat": seat}
    out: list[Move] = []
    mob = state.mobs[seat]
    if a.stage == "protector" and seat == a.defender:
        tokens = [c.card for c in mob.crooks if c.token]
        if tokens:
            out.append(Move("protect", "Name a protector", fixed,
                            (one_card("card", "Which Crook protects it?", state, tokens),)))
        out.append(Move("protect", "No protector", fixed))
    if a.stage == "showdown":
        out.append(_showdown(state, seat, a))
    if seat == a.seat and a.stage in ("protector", "showdown"):
        if a.stage == "showdown":
            out.append(Move("now", "Now! Show all hands", fixed))
        out.append(Move("withdraw", "Back out of the attack", fixed))
    if a.stage == "support":
        side: HelpSide = "attack" if seat == a.seat else "defense"
        do, label = ("assist", "Aid the attack") if side == "attack" else ("defend", "Defend")
        if seat in (a.seat, a.defender):
            cards = [c.card for c in mob.crooks if c.token]
            cards += [h.card for h in mob.rackets if h.token]
            ok = [c for c in cards if support_problem(state, a, seat, c, side) is None]
            if ok:
                out.append(Move(do, label, fixed, (one_card("card", "Which card?", state, ok),)))
            else:
                out.append(Move(do, label, fixed, allowed=False,
                                why="No card of yours can do it now (it needs its token and "
                                "the right place)."))
        if seat == a.seat:
            out += _rolls(state, seat, a)
    return out


def _showdown(state: State, seat: int, a: Attack) -> Move:
    money = state.mobs[seat].money
    inside = seat in (a.seat, a.defender)
    most = money if inside else min(money, state.options.showdown_limit)
    done = any(x == seat for x, _, _ in a.committed)
    params = [Param("amount", "How much (secret)?", "number", minimum=0, maximum=most)]
    if not inside:
        params.append(Param("side", "Which side?", choices=(
            Choice("for", "For the attack"), Choice("against", "Against the attack"))))
    label = "Change your showdown hand" if done else "Put your showdown hand down"
    return Move("showdown", label, {"seat": seat}, tuple(params))


def _rolls(state: State, seat: int, a: Attack) -> list[Move]:
    needed = sum(v for _, v in breakdown(state, a))
    fixed = {"seat": seat}
    dice = Param("dice", "The two dice", "some", tuple(Choice(d, str(d)) for d in range(1, 7)),
                 fewest=2, most=2, repeat=True)
    params = [dice]
    if a.kind == "recruit":
        strength = own_power(state, a.defender, a.target)
        mob = state.mobs[seat]
        unders = [u for u in (a.attacker, *mob.below(a.attacker))
                  if placement_problem(state, seat, strength, u) is None]
        if unders:
            params.append(one_card("under", "If he joins, under whom?", state, unders))
    if needed < 2:  # the rulebook's Warning Shots: no dice, it does not count
        return [Move("roll", NO_DICE[a.kind], fixed)]
    label = f"Enter the dice ({chance(needed)})"
    out = [Move("roll", label, fixed, tuple(params), group="enter the dice")]
    if len(params) > 1:
        out.append(Move("roll", label, fixed, (dice,), group="enter the dice"))
    return out


#: the attacker's one move when no roll can succeed (the number is below 2)
_END_ATTEMPT = "End the attempt: it cannot succeed (no dice)"
NO_DICE = {"hit": "Fire the warning shot: it cannot succeed (no dice)",
           "recruit": _END_ATTEMPT, "takeover": _END_ATTEMPT}


def chance(needed: int) -> str:
    """What a success number means on two dice: "needs 7 or less", "only 11 or 12 fail",
    or how far it is from any chance (below 2 no roll succeeds: the rulebook's Warning
    Shots)."""
    if needed < 2:
        return f"cannot succeed as it stands: {2 - needed} short of a chance"
    if needed > 10:
        return f"number {needed}: only 11 or 12 fail"
    return f"needs {needed} or less"


def _turn_moves(state: State, seat: int) -> list[Move]:
    """The turn's steps and actions of the seat on turn (disabled, with why, for others)."""
    fixed = {"seat": seat}
    why = turn_reason(state, seat) or pending_reason(state)
    if why is not None:
        return [Move("end_turn", EndTurn.label, fixed, allowed=False, why=why)]
    if state.step == "collect":
        return _collect(state, seat)
    out = _draws(state, seat)
    why = draws_reason(state)
    if why is not None:
        return out + [Move("end_turn", EndTurn.label, fixed, allowed=False, why=why),
                      Move("attack", "Attack", fixed, allowed=False, why=why)]
    return out + _ends(state, seat) + _attacks(state, seat) + _token_moves(state, seat)


def _ends(state: State, seat: int) -> list[Move]:
    fixed = {"seat": seat}
    bonus = f"Pass (+{state.options.pass_bonus} G)"
    end_why, pass_why = offer_reason(state), pass_reason(state)
    return [Move("end_turn", EndTurn.label, fixed, allowed=end_why is None, why=end_why or ""),
            Move("pass_turn", bonus, fixed, allowed=pass_why is None, why=pass_why or "")]


def _collect(state: State, seat: int) -> list[Move]:
    mob = state.mobs[seat]
    fixed = {"seat": seat}
    label = Collect.label
    why = share_reason(state) or boss_reason(state, seat)
    if why is not None:
        return [Move("collect", label, fixed, allowed=False, why=why)]
    rest = [c.card for c in mob.crooks if c.card != mob.boss]
    order = Param("pay_order", "Pay whom first (after the Boss)?", "some",
                  card_choices(state, rest), fewest=0)
    out = [Move("collect", label, fixed, group="collect")]
    if rest:
        out.append(Move("collect", f"{label} in my order", fixed, (order,), group="collect"))
    return out


def _draws(state: State, seat: int) -> list[Move]:
    fixed = {"seat": seat}
    owed = draws_owed(state)
    done = drawn_all_reason(state)
    if done is not None:
        return [Move("draw", Draw.label, fixed, allowed=False, why=done)]
    playing = cards_in_play(state)
    free = [c.id for c in catalog("crime_lords").cards
            if c.kind != "mob" and c.id not in playing]
    label = f"Draw a card ({owed} to draw)" if owed else Draw.label
    known = ready_cards(state, free, ("crook", "racket", "special"))
    out = []
    if known:
        out.append(Move("draw", label, fixed, (one_card("card", "Which card?", state, known),),
                        group="draw"))
    for kind, word in NEW_WORDS.items():
        new = next_new(state, free, kind)
        if new:
            stats = (stats_param(state, kind),) if kind in KIND_WORDS else ()
            out.append(Move("draw", f"Draw a new {word}", {**fixed, "card": new}, stats,
                            group="draw"))
    if not state.deck_empty:
        out.append(Move("deck_empty", "The deck is used up", fixed))
    return out


def attack_options(state: State, seat: int) -> list[tuple[AttackKind, str, str, Attack]]:
    """Every attack ``seat`` may announce now: (kind, attacker, target, the attack)."""
    mob = state.mobs[seat]
    crooks = [c.card for m in state.mobs if not m.out for c in m.crooks]
    targets: dict[str, list[str]] = {"recruit": list(crooks), "takeover": [], "hit": list(crooks)}
    targets["takeover"] = [h.card for m in state.mobs for h in m.rackets]
    for card, _ in state.center:
        if state.card(card).kind == "racket":
            targets["takeover"].append(card)
        else:
            targets["recruit"].append(card)
            targets["hit"].append(card)
    kinds: tuple[AttackKind, ...] = ("hit",) if state.war is not None else KINDS
    out = []
    for kind in kinds:
        for attacker in (c.card for c in mob.crooks if c.token):
            for target in targets[kind]:
                defender = state.owner(target)
                try:
                    check_target(state, seat, kind, attacker, target, defender)
                except IllegalAction:
                    continue
                out.append((kind, attacker, target, Attack(
                    seat, kind, attacker, target, defender, "support",
                    war=state.war is not None)))
    return out


def _attacks(state: State, seat: int) -> list[Move]:
    out = []
    money = state.mobs[seat].money
    for kind, attacker, target, a in attack_options(state, seat):
        needed = sum(v for _, v in breakdown(state, a))
        label = (f"{state.label(attacker)} {VERBS[kind]} {state.label(target)} "
                 f"({chance(needed)})")
        label = label[:1].upper() + label[1:]
        fixed: dict[str, Any] = {"seat": seat, "kind": kind, "attacker": attacker,
                                 "target": target}
        out.append(Move("attack", label, fixed, group=ATTACK_GROUPS[kind]))
        top = min(money, state.options.hit_money_limit)
        if kind == "hit" and state.owner(target) != seat and top > 0:
            out.append(Move("attack", f"{label}, with money", fixed, (Param(
                "money", "Money on the Hit (paid now)", "number", minimum=0, maximum=top),),
                group=ATTACK_GROUPS[kind]))
    return out


def _war_moves(state: State, seat: int) -> list[Move]:
    assert state.war is not None
    fixed = {"seat": seat}
    why = war_turn_reason(state, seat)
    if why is not None:
        return [Move("pass", "Pass this war turn", fixed, allowed=False, why=why)]
    return [Move("pass", "Pass this war turn", fixed), *_attacks(state, seat)]


def _token_moves(state: State, seat: int) -> list[Move]:
    """Move, visit, retire and drop, for the seat on turn after its draws."""
    mob = state.mobs[seat]
    fixed = {"seat": seat}
    out: list[Move] = []
    for crook in mob.crooks:
        card, name = crook.card, state.label(crook.card)
        if card == mob.boss:
            continue
        out.append(Move("drop", f"Drop {name} to the center", {**fixed, "card": card},
                        group="drop"))
        if not crook.token:
            continue
        if crook.superior is not None:
            strength = power(state, seat, card)
            below = mob.below(card)
            unders = [u for u in placed(mob) if u != crook.superior and u not in below
                      and u != card and placement_problem(state, seat, strength, u) is None]
            if unders:
                out.append(Move("move", f"Move {name}", {**fixed, "card": card},
                                (one_card("under", "Under whom?", state, unders),), group="move"))
        if crook.unhappy:
            liked = [h.card for h in mob.rackets
                     if likes(state.card(card).weakness, state.card(h.card).type)]
            if liked:
                out.append(Move("visit", f"{name} visits a Racket", {**fixed, "card": card},
                                (one_card("racket", "Which Racket?", state, liked),),
                                group="visit"))
        if is_lieutenant(mob, card) and mob.boss is not None:
            price = 2 * power(state, seat, mob.boss)
            retire = Move("retire_boss", f"{name} retires the Boss ({price} G)",
                          {**fixed, "card": card}, group="retire")
            too_dear = retire_reason(state, seat, price)
            if too_dear is not None:
                retire = Move("retire_boss", retire.label, retire.fixed, group="retire",
                              allowed=False, why=too_dear)
            out.append(retire)
    return out


def _specials(state: State, seat: int) -> list[Move]:
    specials = list(dict.fromkeys(state.mobs[seat].specials))
    if not specials:
        return []
    return [Move("play_special", "Play a Special", {"seat": seat},
                 (one_card("card", "Which Special?", state, specials),))]


def _free_moves(state: State, seat: int) -> list[Move]:
    """Gifts, Specials, claims and leaving: any time in the game, by anyone."""
    mob = state.mobs[seat]
    out = _specials(state, seat)
    for to, other in enumerate(state.mobs):
        if to == seat or other.out:
            continue
        fixed = {"seat": seat, "to": to}
        if state.offer is not None:
            break
        if mob.money >= 1:
            out.append(Move("give", f"Give money to {state.seats[to]}", fixed,
                            (Param("money", "How much?", "number", minimum=1,
                                   maximum=mob.money),), group="give"))
        cards = [h.card for h in mob.rackets] + list(dict.fromkeys(mob.specials))
        if state.war is None and state.turn in (seat, to):
            cards += [c.card for c in mob.crooks if c.card != mob.boss and c.token]
        if cards:
            out.append(Move("give", f"Give a card to {state.seats[to]}", fixed,
                            (one_card("card", "Which card?", state, cards),), group="give"))
    for gone, other in enumerate(state.mobs):
        if other.out and other.wiped_by == seat and other.rackets:
            tokens = [c.card for c in mob.crooks if c.token]
            tokens += [h.card for h in mob.rackets if h.token]
            rackets = Param("rackets", "Which Rackets?", "some",
                            card_choices(state, [h.card for h in other.rackets]), fewest=0)
            label = f"Claim {state.seats[gone]}'s Rackets"
            fixed = {"seat": seat, "from": gone}
            out.append(Move("claim", label, fixed, (rackets,), group="claim"))
            if tokens:
                out.append(Move("claim", label, fixed, (rackets, Param(
                    "tokens", "Spend the tokens of", "some", card_choices(state, tokens),
                    fewest=0)), group="claim"))
    stay = leave_reason(state, seat)
    out.append(Move("leave", "Leave the game", {"seat": seat}, allowed=stay is None,
                    why=stay or ""))
    return out
