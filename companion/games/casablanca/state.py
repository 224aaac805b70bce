"""Casablanca's values: options, agents, the state, and the opening (``start``).

Everything here is a frozen dataclass made of tuples, so a state can be compared,
hashed and stored. ``parse_options`` turns a record header's options into ``Options``
(raising ``SetupError`` with what to change); the engine is built in
``companion.games.casablanca``, the events are in ``events.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.games.base import Setup, SetupError
from companion.games.cards import catalog
from companion.games.casablanca.board import (
    MAX_NAME,
    Board,
    BoardError,
    clip,
    default_board,
    exact_board,
    free_board,
    parse_board,
)
from companion.games.frozen import replace

#: The smallest amount a protester may call in the bidding ritual (the rules: $100).
MIN_CALL = 100
#: The reserved ``to`` of a move: the moving agent's own homebase.
HOME = "home"
#: The suitcase's tag (a card of the catalog, kind ``suitcase``).
SUITCASE = "suitcase"
#: Option ``board``'s value for no board: any named space, any move (version 1's ``null``).
FREE = "free"
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
    "concessions": True,
    "settle_s": 2.0,
    "protest_s": 0,
    # version-1 records only (``upgrade_options``; ``None``: off), so the setup page does
    # not offer them
    "exact_names": None,
    "unlimited_names": None,
}
#: the longest a stand must be seen in one zone before the camera announces its move
MAX_SETTLE_S = 60.0


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
    #: the board: the built-in one (``data/board.json``) unless the host gave their own
    board: Board
    #: the actor and the protester may concede before the blind comparison
    concessions: bool = True
    #: seconds a stand must be seen steadily in a zone before its move is announced
    settle_s: float = 2.0
    #: seconds after an announcement without protests it takes effect by itself (0: never)
    protest_s: float = 0.0

    def spec(self, agent: str) -> AgentSpec:
        for spec in self.agents:
            if spec.id == agent:
                return spec
        raise KeyError(agent)

    def neighbours(self, space: str) -> tuple[str, ...]:
        """The spaces next to ``space`` on the board."""
        return self.board.neighbours(space)


def _agent_specs(raw: Any, limits: bool = True) -> tuple[AgentSpec, ...]:
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
                f"casablanca: option 'agents' maps {clip(repr(agent))} to {clip(repr(home))}; "
                "use non-empty text for both the agent id and its homebase"
            )
        if limits and (len(agent) > MAX_NAME or len(home) > MAX_NAME):
            raise SetupError(
                f"casablanca: option 'agents': {clip(agent)!r} -> {clip(home)!r} is too long; "
                f"use at most {MAX_NAME} characters for an agent id and a homebase"
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


def _v1_flag(options: Mapping[str, Any], key: str) -> bool:
    """A version-1-only option: ``None`` (the default) or false is off."""
    value = options.get(key)
    if value is not None and not isinstance(value, bool):
        raise SetupError(f"casablanca: option '{key}' must be true, false or null, "
                         f"got {clip(repr(value))}")
    return value is True


def _board(raw: Any, exact: bool = False) -> Board:
    """The built-in board (``None``), no board (``"free"``) or the host's, checked; with
    ``exact`` (option ``exact_names``) the host's board is a version-1 map read exactly."""
    if raw is None:
        return default_board()
    if raw == FREE:
        return free_board()
    try:
        return exact_board(raw) if exact else parse_board(raw)
    except BoardError as exc:
        raise SetupError(f"casablanca: option 'board': {exc}") from None


def _seconds(options: Mapping[str, Any], key: str, most: float) -> float:
    raw = options[key]
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not 0 <= raw <= most:
        raise SetupError(
            f"casablanca: option '{key}' must be a number of seconds from 0 to "
            f"{most:g}, got {clip(repr(raw))}"
        )
    return float(raw)


#: Options only the later writer of version 1 knew (fed8c29, after issue 16): the earlier
#: one (419f6ec) refused an option it did not know, and its setup page wrote all three.
LATE_V1_KEYS = ("concessions", "settle_s", "protest_s")


def late_v1(options: Mapping[str, Any]) -> bool:
    """Whether a version-1 header shows it was written by the later release (fed8c29).

    Version 1 was written by two releases with different meanings (docs/records.md,
    "Versions"). The header tells them apart where it can: a key only the later release
    wrote (``LATE_V1_KEYS``), or a board the earlier one could not read as a ``{space:
    [neighbours]}`` map (the board page's ``{"spaces": [...], "streets": [...]}``). Any
    other header is read as the earlier release wrote it."""
    if any(key in options for key in LATE_V1_KEYS):
        return True
    board = options.get("board")
    if board is None or board == FREE:
        return False
    try:
        exact_board(board)
    except BoardError:
        return True  # the earlier release refused this board: only the later one wrote it
    return False


def upgrade_options(version: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a record of format ``version`` implies (docs/records.md, "Versions").

    Version 1 was written by two releases (``late_v1`` tells them apart). The earlier one
    (419f6ec, before issue 16) compared a protest at once (``concessions`` did not exist;
    it is on by default since), and ``board: null`` meant no board at all (any named space,
    any move; it means the built-in board since): ``board: "free"``. A board it gave was a
    ``{space: [neighbours]}`` map whose names were exact (``exact_names``), and no name had
    a length limit (``unlimited_names``). The later one (fed8c29) meant what version 2
    means: its options are read as they are.
    """
    out = dict(options)
    if version < 2 and not late_v1(options):
        out.setdefault("concessions", False)
        out.setdefault("unlimited_names", True)
        if out.get("board") is None:
            out["board"] = FREE
        elif isinstance(out["board"], Mapping):
            out.setdefault("exact_names", True)
    return out


def parse_options(raw: Mapping[str, Any], n_seats: int) -> Options:
    """Checked ``Options`` from merged header options; ``SetupError`` says what to fix.

    ``n_seats`` is not needed by any option of this game (the role's one signature)."""
    options = raw
    step = _positive_int(options, "step")
    budget = _positive_int(options, "budget")
    cost = _positive_int(options, "elimination_cost")
    if budget % step:
        raise SetupError(f"casablanca: 'budget' ({budget}) must be a multiple of 'step' ({step})")
    reveal = _reveal(options["protest_reveal"])
    limits = not _v1_flag(options, "unlimited_names")
    start = options["suitcase_start"]
    if (not isinstance(start, str) or not start or start == HOME
            or (limits and len(start) > MAX_NAME)):
        raise SetupError("casablanca: option 'suitcase_start' must name a space, like 'basar'")
    board = _board(options.get("board"), _v1_flag(options, "exact_names"))
    start = board.find(start) or start
    parsed = Options(
        agents=_agent_specs(options["agents"], limits),
        budget=budget,
        step=step,
        elimination_cost=cost,
        eliminate_in_home=_flag(options, "eliminate_in_home"),
        move_then_eliminate=_flag(options, "move_then_eliminate"),
        protest_reveal=reveal,
        suitcase_start=start,
        board=board,
        concessions=_flag(options, "concessions"),
        settle_s=_seconds(options, "settle_s", MAX_SETTLE_S),
        protest_s=_seconds(options, "protest_s", 600.0),
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
    if options.board.free:
        return
    spaces = set(options.board.ids())
    missing = sorted(({a.homebase for a in options.agents} | {options.suitcase_start}) - spaces)
    if missing:
        raise SetupError(
            f"casablanca: the board has no space {', '.join(clip(m) for m in missing)}; "
            "add every homebase and the suitcase's start to 'board'"
        )


def _check_seats(seats: tuple[str, ...]) -> None:
    for name in seats:
        if len(name) > MAX_NAME:
            raise SetupError(
                f"casablanca: the player name {clip(name)!r} is too long: "
                f"use at most {MAX_NAME} characters"
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
    #: the seat that conceded before the comparison (nothing revealed), if any
    conceded: int | None = None


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
    #: the protester whose protest is open (waiting for a concession or the comparison)
    open: int | None = None
    #: of the two parties of the open protest, those who asked for the comparison
    firm: tuple[int, ...] = ()
    #: when it was announced (the camera's protest window counts from here)
    at: float | None = None

    def key(self) -> tuple[str, str, str]:
        """What makes two announcements 'the same action' (a cancelled one may not return)."""
        return (self.kind, self.agent, self.to or self.target)


@dataclass(frozen=True)
class Sighting:
    """Where the camera last saw a tag (an agent stand or the suitcase), since when.

    ``zone`` is ``None`` once the tag left sight; ``done`` once the engine acted on it
    (announced the move, or noted that it means nothing).
    """

    tag: str
    zone: str | None
    since: float
    done: bool = False


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
    #: what the camera saw last of each tag (agent ids and ``"suitcase"``)
    sightings: tuple[Sighting, ...] = ()
    #: every bribe as ``(turn number, seat, agent, amount)`` (the end screen's chart)
    history: tuple[tuple[int, int, str, int], ...] = ()
    #: turns taken so far (the chart's x axis)
    turns: int = 0
    #: what the camera saw that means nothing (a stand on a non-neighbour...), until the
    #: next announcement, bribe or turn
    note: str = ""

    @property
    def over(self) -> bool:
        """Whether an agent carried the suitcase home (``winners`` says who won)."""
        return self.winners is not None

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

    def space_name(self, space: str) -> str:
        return self.options.board.name(space)

    def reachable(self, agent: str) -> tuple[str, ...]:
        """The spaces ``agent`` may move to: its neighbours; on a free board every space
        known so far (the named spaces, homebases and where agents and the suitcase are)."""
        here = self.agent(agent).space
        board = self.options.board
        if not board.free:
            return board.neighbours(here)
        known = [*board.ids(), *(a.homebase for a in self.options.agents),
                 *(a.space for a in self.agents), self.suitcase_at()]
        return tuple(s for s in dict.fromkeys(known) if s != here)

    def sighting(self, tag: str) -> Sighting | None:
        for s in self.sightings:
            if s.tag == tag:
                return s
        return None

    def with_sighting(self, sighting: Sighting) -> State:
        rest = tuple(s for s in self.sightings if s.tag != sighting.tag)
        return replace(self, sightings=rest + (sighting,))

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
    return f"{label} moves to {state.space_name(a.to)}{carrying}."


# --- the opening -----------------------------------------------------------------


def start(setup: Setup) -> State:
    """The opening: agents in their homebases, the suitcase on its start space.

    ``setup.options`` are already merged with ``DEFAULT_OPTIONS`` (``Engine.new_game``).
    """
    n = setup.n_seats
    options = parse_options(setup.options, n)
    if setup.options.get("unlimited_names") is not True:
        _check_seats(tuple(setup.seats))
    return State(
        seats=tuple(setup.seats),
        options=options,
        agents=tuple(Agent(a.id, a.homebase) for a in options.agents),
        bribes=tuple(tuple(0 for _ in options.agents) for _ in range(n)),
        left=tuple(options.budget for _ in range(n)),
        suitcase_space=options.suitcase_start,
    )
