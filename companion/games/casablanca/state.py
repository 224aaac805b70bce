"""Casablanca's values: options, agents, the state, and the opening (``start``).

Everything here is a frozen dataclass made of tuples, so a state can be compared,
hashed and stored. ``parse_options`` turns a record header's options into ``Options``
(raising ``SetupError`` with what to change); the engine is built in
``companion.games.casablanca``, the events are in ``events.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from companion.games.base import Setup, SetupError
from companion.games.cards import catalog

#: The smallest amount a protester may call in the bidding ritual (the rules: $100).
MIN_CALL = 100
#: The reserved ``to`` of a move: the moving agent's own homebase.
HOME = "home"
#: What a protest's bidding ritual shows the table: the last call, or only the verdict.
ProtestReveal = Literal["called", "winner"]
REVEALS: tuple[ProtestReveal, ...] = ("called", "winner")
#: What an announcement is: a move or an elimination.
AnnouncedKind = Literal["move", "eliminate"]
#: Where an announcement stands: waiting for protests, taken effect, or stopped by one.
AnnouncedResult = Literal["pending", "done", "cancelled"]


def catalog_agents() -> dict[str, str]:
    """``{agent id: homebase}`` of the built-in catalog, in catalog order."""
    return {
        c.id: str(c.extra["homebase"]) for c in catalog("casablanca").cards if c.kind == "agent"
    }


#: The header options and their defaults (an option not listed here is refused).
DEFAULT_OPTIONS: Mapping[str, Any] = {
    "agents": catalog_agents(),
    "budget": 10_000,
    "step": 100,
    "elimination_cost": 1_000,
    "eliminate_in_home": False,
    "move_then_eliminate": True,
    "protest_reveal": "called",
    "suitcase_start": "basar",
    "board": None,
}


# --- options ---------------------------------------------------------------------


@dataclass(frozen=True)
class AgentSpec:
    """One agent as data: id, homebase (a space id), display name and colour."""

    id: str
    homebase: str
    name: str
    colour: str | None


@dataclass(frozen=True)
class Options:
    agents: tuple[AgentSpec, ...]
    budget: int
    step: int
    elimination_cost: int
    eliminate_in_home: bool
    move_then_eliminate: bool
    protest_reveal: ProtestReveal
    suitcase_start: str
    #: ``((space, (neighbours...)), ...)`` or ``None`` when the board is not tracked
    board: tuple[tuple[str, tuple[str, ...]], ...] | None

    def spec(self, agent: str) -> AgentSpec:
        for spec in self.agents:
            if spec.id == agent:
                return spec
        raise KeyError(agent)

    def neighbours(self, space: str) -> tuple[str, ...] | None:
        """The spaces next to ``space``, or ``None`` when no board is tracked."""
        if self.board is None:
            return None
        for name, near in self.board:
            if name == space:
                return near
        return ()


def _agent_specs(raw: Any) -> tuple[AgentSpec, ...]:
    if not isinstance(raw, Mapping) or len(raw) < 2:
        raise SetupError(
            "casablanca: option 'agents' must map at least two agent ids to their homebases, "
            'like {"red": "airport", "blue": "hotel"}'
        )
    known = {c.id: c for c in catalog("casablanca").cards if c.kind == "agent"}
    specs = []
    for agent, home in raw.items():
        if not isinstance(agent, str) or not agent or not isinstance(home, str) or not home:
            raise SetupError(
                f"casablanca: option 'agents' maps {agent!r} to {home!r}; "
                "use non-empty text for both the agent id and its homebase"
            )
        if home == HOME or agent == HOME:
            raise SetupError(f"casablanca: '{HOME}' is reserved in moves; rename it in 'agents'")
        card = known.get(agent)
        name = card.label() if card else f"Agent {agent.replace('_', ' ').title()}"
        colour = str(card.extra.get("colour")) if card else None
        specs.append(AgentSpec(agent, home, name, colour))
    return tuple(specs)


def _positive_int(options: Mapping[str, Any], key: str) -> int:
    value = options[key]
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise SetupError(
            f"casablanca: option '{key}' must be a positive whole number, got {value!r}"
        )
    return value


def _flag(options: Mapping[str, Any], key: str) -> bool:
    value = options[key]
    if not isinstance(value, bool):
        raise SetupError(f"casablanca: option '{key}' must be true or false, got {value!r}")
    return value


def _board(raw: Any) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    """The board as symmetric adjacency, or ``None``."""
    if raw is None:
        return None
    bad = SetupError(
        "casablanca: option 'board' must map each space to the list of spaces next to it, "
        'like {"basar": ["hotel", "market"], ...}, or be null'
    )
    if not isinstance(raw, Mapping):
        raise bad
    near: dict[str, set[str]] = {}
    for space, others in raw.items():
        if not isinstance(space, str) or not isinstance(others, list | tuple):
            raise bad
        for other in others:
            if not isinstance(other, str) or other == space:
                raise bad
            near.setdefault(space, set()).add(other)
            near.setdefault(other, set()).add(space)
    return tuple((s, tuple(sorted(n))) for s, n in sorted(near.items()))


def parse_options(options: Mapping[str, Any]) -> Options:
    """Checked ``Options`` from merged header options; ``SetupError`` says what to fix."""
    step = _positive_int(options, "step")
    budget = _positive_int(options, "budget")
    cost = _positive_int(options, "elimination_cost")
    if budget % step:
        raise SetupError(f"casablanca: 'budget' ({budget}) must be a multiple of 'step' ({step})")
    reveal = _reveal(options["protest_reveal"])
    start = options["suitcase_start"]
    if not isinstance(start, str) or not start or start == HOME:
        raise SetupError("casablanca: option 'suitcase_start' must name a space, like 'basar'")
    parsed = Options(
        agents=_agent_specs(options["agents"]),
        budget=budget,
        step=step,
        elimination_cost=cost,
        eliminate_in_home=_flag(options, "eliminate_in_home"),
        move_then_eliminate=_flag(options, "move_then_eliminate"),
        protest_reveal=reveal,
        suitcase_start=start,
        board=_board(options.get("board")),
    )
    _check_board_spaces(parsed)
    return parsed


def _reveal(raw: Any) -> ProtestReveal:
    """The ``protest_reveal`` option as one of ``REVEALS``."""
    for reveal in REVEALS:
        if raw == reveal:
            return reveal
    raise SetupError(
        f"casablanca: option 'protest_reveal' must be one of {', '.join(REVEALS)}, "
        f"got {raw!r}"
    )


def _check_board_spaces(options: Options) -> None:
    if options.board is None:
        return
    spaces = {s for s, _ in options.board}
    missing = sorted(({a.homebase for a in options.agents} | {options.suitcase_start}) - spaces)
    if missing:
        raise SetupError(
            f"casablanca: the board has no space {', '.join(missing)}; "
            "add every homebase and the suitcase's start to 'board'"
        )


# --- state -----------------------------------------------------------------------


@dataclass(frozen=True)
class Agent:
    """Where one agent stands; an eliminated agent keeps its last space."""

    id: str
    space: str
    active: bool = True


@dataclass(frozen=True)
class Protest:
    """One settled protest: who protested, whether it was upheld, what was revealed."""

    seat: int
    upheld: bool
    called: int | None


@dataclass(frozen=True)
class Announced:
    """A move or elimination waiting for protests (or, once settled, its result)."""

    kind: AnnouncedKind
    seat: int
    agent: str
    to: str = ""  # a move's destination space
    suitcase: bool = False  # a move takes the suitcase along
    target: str = ""  # an elimination's target
    protests: tuple[Protest, ...] = ()
    result: AnnouncedResult = "pending"

    def key(self) -> tuple[str, str, str]:
        """What makes two announcements 'the same action' (a cancelled one may not return)."""
        return (self.kind, self.agent, self.to or self.target)


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    options: Options
    agents: tuple[Agent, ...]
    #: per seat, the bribe on each agent in ``options.agents`` order
    bribes: tuple[tuple[int, ...], ...]
    left: tuple[int, ...]
    suitcase_space: str
    suitcase_agent: str | None = None
    turn: int = 0
    pending: Announced | None = None
    #: the last announced action, kept after it was settled (for the table view)
    last: Announced | None = None
    #: the seat on turn lost a protest this turn: no bribe
    no_bribe: bool = False
    cancelled: tuple[tuple[str, str, str], ...] = ()
    #: the agent the seat on turn just moved and may still eliminate with
    follow_up: str | None = None
    winners: tuple[int, ...] | None = None
    winning_agent: str | None = None
    mover: int | None = None
    log: tuple[str, ...] = ()

    def index(self, agent: str) -> int:
        for i, a in enumerate(self.agents):
            if a.id == agent:
                return i
        raise KeyError(agent)

    def agent(self, agent: str) -> Agent:
        return self.agents[self.index(agent)]

    def bribe(self, seat: int, agent: str) -> int:
        return self.bribes[seat][self.index(agent)]

    def name(self, agent: str) -> str:
        return self.options.spec(agent).name

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.seats)

    def with_agent(self, agent: Agent) -> State:
        i = self.index(agent.id)
        return replace(self, agents=self.agents[:i] + (agent,) + self.agents[i + 1 :])

    def suitcase_at(self) -> str:
        """The space the suitcase is on (its carrier's space when carried)."""
        if self.suitcase_agent is not None:
            return self.agent(self.suitcase_agent).space
        return self.suitcase_space


def announcement_text(state: State, a: Announced) -> str:
    """A human line for an announced move or elimination (the log and the views)."""
    label = state.name(a.agent)
    if a.kind == "eliminate":
        return f"{label} eliminates {state.name(a.target)}."
    carrying = " with the suitcase" if a.suitcase else ""
    return f"{label} moves to {a.to}{carrying}."


# --- the opening -----------------------------------------------------------------


def start(setup: Setup) -> State:
    """The opening: agents in their homebases, the suitcase on its start space.

    ``setup.options`` are already merged with ``DEFAULT_OPTIONS`` (``Engine.new_game``).
    """
    options = parse_options(setup.options)
    n = setup.n_seats
    return State(
        seats=tuple(setup.seats),
        options=options,
        agents=tuple(Agent(a.id, a.homebase) for a in options.agents),
        bribes=tuple(tuple(0 for _ in options.agents) for _ in range(n)),
        left=tuple(options.budget for _ in range(n)),
        suitcase_space=options.suitcase_start,
    )
