"""What each seat (and the host) may do now in Casablanca, and what the table waits for.

``moves(state, seat)`` lists the options as ``Move`` templates built from the rules'
own checks (``legality.py``, which ``decide`` raises), so the phone never offers what
``decide`` refuses: on a
seat's turn its agents with the spaces each can reach (grouped "Move an agent" -> the
agent -> the space -> with the suitcase or not), whom each agent can eliminate, and the
bribe as a ``split`` of the seat's money; a protest, a concession or the comparison when
they apply; the host's ``resolve``. ``waiting(state)`` is the one truth the table screen
and every phone show, during a protest and after the game too.
"""

from __future__ import annotations

from companion.games.casablanca import legality
from companion.games.casablanca.commit import commit_pending
from companion.games.casablanca.events import TurnPassed
from companion.games.casablanca.fold import apply
from companion.games.casablanca.state import HOME, State, announcement_text
from companion.games.moves import Choice, Move, Param, Waiting
from companion.games.words import listed

BRIBE, MOVE, ELIMINATE = "Bribe agents", "Move an agent", "Eliminate"


def moves(state: State, seat: int | None) -> list[Move]:
    """What ``seat`` (``None``: the host) may do now; options that exist but are not
    allowed now say why."""
    if state.over:
        return []
    if seat is None:
        return _host(state)
    return [*_settle(state, seat), *_protest(state, seat), *_amend(state, seat),
            *_turn(state, seat)]


def _host(state: State) -> list[Move]:
    pending = state.pending
    if pending is not None and pending.open is not None:
        return [Move("resolve", "Compare the bribes now")]
    if pending is not None:
        return [Move("resolve", "Confirm: nobody else protests")]
    why = legality.resolve_reason(state)
    if why is None:
        return [Move("resolve", "Let the next player go on")]
    return [Move("resolve", "Confirm", allowed=False, why=why)]


def _settle(state: State, seat: int) -> list[Move]:
    """Concede or ask for the comparison: only the two parties of an open protest."""
    pending = state.pending
    if pending is None or pending.open is None or seat not in (pending.seat, pending.open):
        return []
    fixed = {"seat": seat}
    mine = "cancel my action" if seat == pending.seat else "let it stand"
    compare = Move("compare", "Compare our bribes", fixed, group="Protest")
    why = legality.settle_reason(state, seat, concede=False)
    if why is not None:
        compare = Move("compare", "Compare our bribes", fixed, group="Protest", allowed=False,
                       why=why)
    return [Move("concede", f"Concede ({mine})", fixed, group="Protest"), compare]


def _protest(state: State, seat: int) -> list[Move]:
    pending = state.pending
    label = "Protest"
    if pending is not None and pending.open is not None and seat in (pending.seat,
                                                                      pending.open):
        return []  # the party of the open protest concedes or compares
    if pending is not None:
        label = f"Protest against {state.name(pending.agent)}"
    why = legality.protest_reason(state, seat)
    if why is not None:
        return [Move("protest", label, {"seat": seat}, group="Protest", allowed=False,
                     why=why)]
    return [Move("protest", label, {"seat": seat}, group="Protest")]


def _amend(state: State, seat: int) -> list[Move]:
    """The announcing seat may still change its mind about the suitcase, before protests."""
    pending = state.pending
    if pending is not None:
        pending = legality.amendable(state, seat, pending.agent)
    if pending is None or legality.suitcase_reason(state, pending.agent, not pending.suitcase):
        return []
    label = "Leave the suitcase after all" if pending.suitcase else "Take the suitcase along"
    to = _space_choice(state, pending.agent, pending.to)
    return [Move("move", label, {"seat": seat, "agent": pending.agent, "to": to.value,
                                 "suitcase": not pending.suitcase}, group="Announced")]


# --- the seat's turn ------------------------------------------------------------------


def turn_state(state: State, seat: int) -> tuple[State | None, str]:
    """The state a bribe, move or elimination of ``seat`` is judged in (the announced
    action committed, a follow-up window closed by the next seat), or why there is none."""
    why = legality.open_protest_reason(state)
    if why is not None:
        return None, why
    after = state
    if state.pending is not None:
        for event in commit_pending(state):
            after = apply(after, event)
        why = legality.game_over_reason(after)
        if why is not None:
            return None, why
    if after.follow_up is not None and seat == after.next_seat(after.turn):
        after = apply(after, TurnPassed(after.turn, seat))
    return after, ""


def _turn(state: State, seat: int) -> list[Move]:
    after, why = turn_state(state, seat)
    if after is not None:
        why = legality.turn_reason(after, seat) or ""
    if after is None or why:
        fixed = {"seat": seat}
        return [Move("bribe", BRIBE, fixed, group=BRIBE, allowed=False, why=why),
                Move("move", MOVE, fixed, group=MOVE, allowed=False, why=why),
                Move("eliminate", ELIMINATE, fixed, group=ELIMINATE, allowed=False, why=why)]
    return [_bribe(after, seat), *_moves_of_agents(after, seat), *_eliminations(after, seat)]


def _bribe(state: State, seat: int) -> Move:
    step, left = state.options.step, state.left[seat]
    why = legality.budget_reason(state, seat) or legality.bribe_reason(state, seat)
    if why:
        return Move("bribe", BRIBE, {"seat": seat}, group=BRIBE, allowed=False, why=why)
    agents = tuple(Choice(a.id, state.name(a.id)) for a in state.agents if a.active)
    split = Param("amounts", "How much on which agents?", "split", agents, minimum=step,
                  maximum=left, step=step, keys=("agent", "amount"))
    return Move("bribe", BRIBE, {"seat": seat}, (split,), group=BRIBE)


def _space_choice(state: State, agent: str, space: str) -> Choice:
    """A space as a move names it: the agent's own homebase as ``home``."""
    name = state.space_name(space).replace("_", " ")  # a board given as ids names no space
    if space == state.options.spec(agent).homebase:
        return Choice(HOME, f"{name} (home)")
    return Choice(space, name)


def _moves_of_agents(state: State, seat: int) -> list[Move]:
    why = legality.follow_up_reason(state)
    if why is not None:
        return [Move("move", MOVE, {"seat": seat}, group=MOVE, allowed=False, why=why)]
    out = []
    for agent in state.agents:
        if not agent.active:
            continue
        name = state.name(agent.id)
        spaces = tuple(_space_choice(state, agent.id, s) for s in state.reachable(agent.id)
                       if legality.move_reason(state, seat, agent.id, s, False) is None)
        fixed: dict[str, object] = {"seat": seat, "agent": agent.id}
        why = legality.no_way_reason(state, agent.id, len(spaces))
        if why is not None:
            out.append(Move("move", name, fixed, group=MOVE, allowed=False, why=why))
            continue
        params = [Param("to", f"Where does {name} go?", choices=spaces)]
        if state.suitcase_at() == agent.space:
            params.append(Param("suitcase", "Take the suitcase along?", choices=(
                Choice(True, "Yes, with the suitcase"), Choice(False, "No, without it"))))
        else:
            fixed["suitcase"] = False
        out.append(Move("move", name, fixed, tuple(params), group=MOVE))
    return out


def _eliminations(state: State, seat: int) -> list[Move]:
    """Per agent that shares its space with an agent it could eliminate: whom, or why not."""
    out = []
    for agent in state.agents:
        if not agent.active or (state.follow_up is not None and agent.id != state.follow_up):
            continue
        targets = legality.targets(state, agent.id)
        if not targets:
            continue
        barred = {t: legality.elimination_reason(state, seat, agent.id, t) for t in targets}
        ok = tuple(Choice(t, state.name(t)) for t in targets if barred[t] is None)
        name, fixed = state.name(agent.id), {"seat": seat, "agent": agent.id}
        if ok:
            param = Param("target", f"Whom does {name} eliminate?", choices=ok)
            out.append(Move("eliminate", name, fixed, (param,), group=ELIMINATE))
        else:
            out.append(Move("eliminate", name, fixed, group=ELIMINATE, allowed=False,
                            why=next(w for w in barred.values() if w)))
    return out


# --- what the table waits for ---------------------------------------------------------


def waiting(state: State) -> Waiting:
    """Who must act now, on what, and why: the same sentence on the table and every phone."""
    why = status_line(state)
    if state.over:
        return Waiting((), "over", why)
    pending = state.pending
    if pending is not None and pending.open is not None:
        parties = tuple(s for s in (pending.open, pending.seat) if s not in pending.firm)
        ask = "Concede, or ask for the blind comparison."
        return Waiting(parties, "protest", why, host=True, asks={s: ask for s in parties})
    if pending is not None:
        # who may protest depends on secret sheets, so only the seat that plays on is
        # waited for; each phone's protest move says whether it may protest
        nxt = plays_on(state)
        return Waiting(() if nxt is None else (nxt,), "announcement", why, host=True)
    if state.follow_up is not None:
        # the mover may still eliminate (if its sheet allows): the next seat plays on
        nxt = state.next_seat(state.turn)
        return Waiting((nxt,), "turn", why, host=True)
    return Waiting((state.turn,), "turn", why,
                   asks={state.turn: "Your turn: bribe, move or eliminate."})


def plays_on(state: State) -> int | None:
    """The seat whose next action lets the announcement stand (``None``: it ends the game)."""
    pending = state.pending
    assert pending is not None
    after, _ = turn_state(state, pending.seat)
    if after is None:
        return None
    return after.next_seat(after.turn) if after.follow_up is not None else after.turn


def status_line(state: State) -> str:
    """One human line: who is on turn and what the table waits for."""
    if state.winners is not None:
        names = listed(state.seats[s] for s in state.winners)
        agent = state.name(state.winning_agent or "")
        return f"{agent} carried the suitcase home: {names} won."
    who = state.seats[state.turn]
    p = state.pending
    if p is not None and p.open is not None:
        return (
            f"{state.seats[p.open]} protests {announcement_text(state, p).rstrip('.')}: "
            f"{state.seats[p.seat]} and {state.seats[p.open]} may concede, or compare."
        )
    if p is not None:
        nxt = plays_on(state)
        then = (f"or {state.seats[nxt]} plays on to let it stand"
                if nxt is not None else "or the host confirms it")
        return f"{state.seats[p.seat]}: {announcement_text(state, p)} Protest now, {then}."
    if state.follow_up is not None:
        return (
            f"{who} may still eliminate with {state.name(state.follow_up)}; "
            f"otherwise {state.seats[state.next_seat(state.turn)]} goes on."
        )
    if state.no_bribe:
        return f"{who}'s action was stopped: {who} must move or eliminate (no bribe)."
    return f"{who}'s turn: move an agent, bribe, or eliminate."
