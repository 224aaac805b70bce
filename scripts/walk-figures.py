"""How often one accepted phone action walks between companion/table/ and session.py.

Runs one Nasty 7 game on a memory store (a card played by the table itself, then a
phone's accusation) and traces, with ``sys.setprofile``, the Python calls made while
``Table.process`` handles the accusation alone. Of the calls into functions of the two
files, in order, a *stay* is a call in the same file as the one before it, and a *climb
back* is a return from a session.py function into a table.py one (the walk goes back up
to the table to be told what to do next). Fewer of both: the step is one piece.

Run from a checkout's root (``python scripts/walk-figures.py``); it measures the code of
the checkout it is run in (the current directory comes first on the path), so the same
script gives the before and after figures (``cd /other/checkout && python
/this/checkout/scripts/walk-figures.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path.cwd()))  # the checkout it is run in, before any installed one

from companion.inputs import TABLE, Command, Source  # noqa: E402
from companion.store import MemoryStore  # noqa: E402
from companion.table import Table  # noqa: E402

FILES = ("table.py", "session.py")


def _file(frame: FrameType | None) -> str | None:
    if frame is None:
        return None
    path = Path(frame.f_code.co_filename)
    return path.name if path.parent.name == "companion" and path.name in FILES else None


def walk() -> tuple[int, int, int, list[str]]:
    """(stays, climbs back, calls into the two files, where control was after each call
    and return) for one accepted phone action."""
    clock = iter(float(n) for n in range(100, 10_000))
    table = Table(MemoryStore(), clock=lambda: next(clock))
    start = Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"],
                              "options": {"hesitation_s": 60.0}})
    started = table.process(start)
    assert started.accepted, started.reason
    play = {"do": "play", "card": "racketeer"}
    assert table.process(Command("action", {"action": play}, source=TABLE)).accepted
    accuse = Command("action", {"action": {"do": "accuse", "by": 1, "against": 0}},
                     source=Source.of_seat(1))
    calls: list[str] = []
    where: list[str] = []  # the file control is in after each call and return
    climbs = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal climbs
        here = _file(frame)
        if here is None:
            return
        if event == "call":
            calls.append(here)
            where.append(here)
        elif event == "return":
            back = _file(frame.f_back)
            if back is not None:
                where.append(back)
            if here == "session.py" and back == "table.py":
                climbs += 1

    sys.setprofile(profile)
    try:
        result = table.process(accuse)
    finally:
        sys.setprofile(None)
    assert result.accepted, result.reason
    stays = sum(1 for a, b in zip(calls, calls[1:], strict=False) if a == b)
    return stays, climbs, len(calls), where


def main() -> int:
    import companion.table

    stays, climbs, calls, where = walk()
    pairs = list(zip(where, where[1:], strict=False))
    print(f"{Path(companion.table.__file__).parent.parent}: one accepted phone action "
          f"through Table.process: {calls} calls into table.py and session.py, "
          f"{stays} stays, {climbs} climbs back")
    print(f"  counting returns too: {len(where)} moves, "
          f"{sum(1 for a, b in pairs if a == b)} stays, "
          f"{sum(1 for a, b in pairs if (a, b) == ('session.py', 'table.py'))} "
          "climbs back from session.py to table.py")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
