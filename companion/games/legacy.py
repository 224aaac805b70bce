"""TEMPORARY (issue 25 migration): the old guess of who must act, from the old views.

Each game replaces this with its own ``waiting(state)``; this module then goes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.moves import Waiting

_FLAGS = ("attention", "your_turn", "must_act")


def guessed_waiting(public_view: Callable[[Any], dict[str, Any]],
                    seat_view: Callable[[Any, int], dict[str, Any]],
                    n_seats: Callable[[Any], int]) -> Callable[[Any], Waiting]:
    def waiting(state: Any) -> Waiting:
        seats = []
        view = public_view(state)
        for seat in range(n_seats(state)):
            private = seat_view(state, seat)
            me = private.get("me") if isinstance(private.get("me"), Mapping) else {}
            flag = next((w[f] for f in _FLAGS for w in (private, me)
                         if isinstance(w.get(f), bool)), None)
            if flag is None:
                awaiting = view.get("awaiting")
                turn = view.get("turn")
                flag = (isinstance(awaiting, list) and seat in awaiting) or turn == seat
            if flag:
                seats.append(seat)
        return Waiting(tuple(seats), "turn", "")
    return waiting
