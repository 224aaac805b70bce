"""Casablanca: who may do what now, and why not (pure checks, no events).

Every check returns ``None`` when the action is allowed or the sentence that tells the
player why not. ``rules.py`` (and through it ``decide`` and the camera) raises it as
``IllegalAction``; ``moves.py`` shows it beside the option; ``inputs.py`` asks the same
checks what a button means. So each refusal is written once and the phone, the table and
the rules cannot disagree (python-chess's one move generator behind ``legal_moves``,
``is_legal`` and ``parse_san``). Refusals never name a bribe amount, a key or an id
(agents and spaces by their names).
"""

from __future__ import annotations

from companion.games.base import IllegalAction
from companion.games.casablanca.board import MAX_NAME
from companion.games.casablanca.state import HOME, MIN_CALL, Announced, State, announcement_text
from companion.games.money import dollars


def _stopped(what: str) -> str:
    """An announcement a protest stopped this turn cannot be announced again."""
    return f"A protest stopped {what} this turn: announce a different action."

def refuse(reason: str | None) -> None:
    """Raise ``reason`` as ``IllegalAction`` unless it is ``None`` (the action is allowed)."""
    if reason is not None:
        raise IllegalAction(reason)


def seat_reason(state: State, seat: int | None) -> str | None:
    """Refuse a seat that is not at this table."""
    if seat is None or not 0 <= seat < len(state.seats):
        return "There is no such player at this table."
    return None


def open_protest_reason(state: State) -> str | None:
    """Refuse playing on while a protest waits for a concession or the comparison."""
    pending = state.pending
    if pending is None or pending.open is None:
        return None
    return (
        f"{state.seats[pending.open]} protests: {announcement_text(state, pending)} "
        f"{state.seats[pending.open]} and {state.seats[pending.seat]} settle it first "
        "(concede or compare)."
    )


def game_over_reason(state: State) -> str | None:
    """Refuse playing on after the announced move carried the suitcase home (``state``:
    the announcement committed)."""
    if state.over:
        return ("The announced move carries the suitcase home and ends the game: the host "
                "confirms it.")
    return None


def turn_reason(state: State, seat: int) -> str | None:
    """Refuse a bribe, move or elimination out of turn."""
    if seat != state.turn:
        return f"It is {state.seats[state.turn]}'s turn: you may act on your own turn."
    return None


def follow_up_reason(state: State) -> str | None:
    """Refuse anything but the follow-up elimination after a move."""
    if state.follow_up is not None:
        return (
            f"You already moved {state.name(state.follow_up)} this turn: you may only "
            "eliminate with it, or let the next player go on."
        )
    return None


def bribe_reason(state: State, seat: int) -> str | None:
    """Why ``seat`` may not bribe now (pending actions already committed), or ``None``."""
    if reason := turn_reason(state, seat) or follow_up_reason(state):
        return reason
    if state.no_bribe:
        return (
            "Your action was stopped by a protest, so you may not bribe this turn: "
            "announce another move or elimination."
        )
    return None


def budget_reason(state: State, seat: int) -> str | None:
    """Refuse offering a bribe to a seat without a step's money left."""
    if state.left[seat] < state.options.step:
        return "You have spent your whole budget: move or eliminate instead."
    return None


def total_reason(state: State, seat: int, total: int) -> str | None:
    """Refuse bribes adding up to more than ``seat`` has left."""
    if total > state.left[seat]:
        return ("These bribes add up to more than you have left: lower them (your sheet "
                "shows what is left).")
    return None


def items_reason(state: State, count: int) -> str | None:
    """Refuse a bribe without any item."""
    return "Choose at least one agent and the amount to bribe it with." if not count else None


def amount_reason(state: State, amount: int) -> str | None:
    """Refuse an amount that is not a positive multiple of the step."""
    step = state.options.step
    if amount <= 0 or amount % step:
        return f"Each bribe must be a positive multiple of {dollars(step)}: correct the amount."
    return None


def agent_reason(state: State, agent: str) -> str | None:
    """Refuse an agent that is not of this game, or no longer in play."""
    ids = [a.id for a in state.agents]
    if agent not in ids:
        return f"There is no such agent: the agents are {', '.join(state.name(a) for a in ids)}."
    if not state.agent(agent).active:
        return f"{state.name(agent)} was eliminated and is out of the game: choose another agent."
    return None


def destination(state: State, agent: str, raw: str) -> str:
    """The space id a move names (its id or name, or ``home``); refusals list the way."""
    board = state.options.board
    if board.free or board.exact:  # version 1: the text is the space, as it is
        if raw == "":
            raise IllegalAction("Choose a space to move to.")
        return state.options.spec(agent).homebase if raw == HOME else raw
    ways = f"{state.name(agent)} can go to {board.names(state.reachable(agent))}."
    if raw.strip() == "":
        raise IllegalAction(f"Choose a space to move to: {ways}")
    if raw.strip().casefold() == HOME:
        return state.options.spec(agent).homebase
    if len(raw) > MAX_NAME:
        raise IllegalAction(f"A space name has at most {MAX_NAME} characters: there is no "
                            f"such space. {ways}")
    to = board.find(raw)
    if to is None:
        raise IllegalAction(f"There is no such space on the board: {ways}")
    return to


def suitcase_reason(state: State, agent: str, with_suitcase: bool) -> str | None:
    """Refuse taking the suitcase along when it is not where ``agent`` stands."""
    here = state.agent(agent).space
    if with_suitcase and state.suitcase_at() != here:
        return (f"The suitcase is not at {state.space_name(here)}: move {state.name(agent)} "
                "without it.")
    return None


def move_reason(state: State, seat: int, agent: str, to: str, with_suitcase: bool) -> str | None:
    """Why ``seat`` may not move the active ``agent`` to the space ``to`` now, or ``None``
    (its turn already checked)."""
    if reason := follow_up_reason(state):
        return reason
    label, name, here = state.name(agent), state.space_name, state.agent(agent).space
    if to == here:
        return f"{label} is already at {name(to)}: move it to another space."
    near = state.reachable(agent)
    if not state.options.board.free and to not in near:
        return (f"{name(to)} is not next to {name(here)}: {label} can go to "
                f"{state.options.board.names(near)}.")
    if reason := suitcase_reason(state, agent, with_suitcase):
        return reason
    if Announced("move", seat, agent, to=to).key() in state.cancelled:
        return _stopped(f"moving {label} to {name(to)}")
    return None


def no_way_reason(state: State, agent: str, ways: int) -> str | None:
    """Refuse offering a move of ``agent`` that has no space to go to this turn."""
    return f"{state.name(agent)} has no space to go to this turn." if not ways else None


def amendable(state: State, seat: int | None, agent: str) -> Announced | None:
    """The announced move that ``seat`` may still amend (its suitcase choice) before any
    protest, or ``None``."""
    pending = state.pending
    if (pending is None or pending.kind != "move" or pending.protests
            or pending.open is not None or seat != pending.seat or agent != pending.agent):
        return None
    return pending


def targets(state: State, agent: str) -> list[str]:
    """The agents ``agent`` could eliminate where it stands (public facts only)."""
    me = state.agent(agent)
    if not me.active:
        return []
    o = state.options
    return [
        other.id
        for other in state.agents
        if other.active
        and other.id != me.id
        and other.space == me.space
        and (o.eliminate_in_home or me.space != o.spec(other.id).homebase)
    ]


def elimination_reason(state: State, seat: int, agent: str, target: str) -> str | None:
    """Why ``agent`` may not eliminate ``target`` for ``seat`` now, or ``None``."""
    label, victim = state.name(agent), state.name(target)
    if state.follow_up is not None and agent != state.follow_up:
        return f"After your move you may only eliminate with {state.name(state.follow_up)}."
    if agent == target:
        return f"{label} cannot eliminate itself: name another agent."
    space = state.agent(agent).space
    if state.agent(target).space != space:
        return (f"{victim} is not on {label}'s space ({state.space_name(space)}): "
                "both must share a space.")
    if not state.options.eliminate_in_home and space == state.options.spec(target).homebase:
        return f"{victim} is in its homebase, where it cannot be eliminated."
    if ("eliminate", agent, target) in state.cancelled:
        return _stopped(f"{label} eliminating {victim}")
    cost = state.options.elimination_cost
    if state.bribe(seat, agent) < cost:
        return f"To eliminate with {label} you need at least {dollars(cost)} of your bribes on it."
    return None


def announcement_reason(state: State) -> str | None:
    """Refuse a protest when nothing is announced."""
    if state.pending is None:
        return ("There is nothing to protest: protest right after a move or elimination is "
                "announced.")
    return None


def protest_reason(state: State, seat: int | None) -> str | None:
    """Why ``seat`` may not protest the announcement now, or ``None``."""
    if reason := announcement_reason(state) or seat_reason(state, seat):
        return reason
    pending = state.pending
    assert pending is not None and seat is not None
    if seat == pending.seat:
        return "You cannot protest your own action."
    if pending.open is not None:
        if seat == pending.open:
            return "Your protest is open: concede, or ask for the comparison."
        return (f"{state.seats[pending.open]}'s protest is being settled: protest after it, "
                "if the action still stands.")
    if seat in {p.seat for p in pending.protests}:
        return "You already protested this action."
    n = len(state.seats)
    later = [p.seat for p in pending.protests
             if (p.seat - pending.seat) % n > (seat - pending.seat) % n]
    if later:
        return (f"{state.seats[later[0]]} sits after you clockwise and has already "
                "protested: your chance to protest this action has passed.")
    if state.bribe(seat, pending.agent) < MIN_CALL:
        return f"To protest you need at least ${MIN_CALL} of your bribes on {state.name(pending.agent)}."
    return None


def settle_reason(state: State, seat: int | None, concede: bool) -> str | None:
    """Why ``seat`` may not concede (or ask for the comparison) now, or ``None``."""
    pending = state.pending
    if pending is None or pending.open is None:
        return "No protest is waiting: concede or compare only while a protest is open."
    if reason := seat_reason(state, seat):
        return reason
    if seat not in (pending.seat, pending.open):
        return (f"Only {state.seats[pending.seat]} and {state.seats[pending.open]} settle "
                "this protest.")
    if not concede and seat in pending.firm:
        other = pending.open if seat == pending.seat else pending.seat
        return f"You asked for the comparison: waiting for {state.seats[other]}."
    return None


def resolve_reason(state: State) -> str | None:
    """Refuse the host's confirm when nothing is announced and no follow-up is open."""
    if state.pending is None and state.follow_up is None:
        return "Nothing is announced: there is nothing to confirm."
    return None
