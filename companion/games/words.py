"""Words every game's shared screens need: plurals written out, never "Racket(s)"; names
listed as a sentence lists them, "Ann, Ben and Cy", never "Ann and Ben and Cy"."""

from __future__ import annotations

import re
from collections.abc import Iterable

_COUNTED = re.compile(r"\b(\d+|one|One) ((?:[A-Z]?[a-z]+ )?)([A-Za-z]+)\(s\)")
_BARE = re.compile(r"\b([A-Za-z]+)\(s\)")


def plurals(text: str) -> str:
    """``text`` with each counted "(s)" written out: "1 Racket(s)" -> "1 Racket",
    "3 card(s)" -> "3 cards"; an uncounted "Racket(s)" -> "Rackets"."""

    def counted(m: re.Match[str]) -> str:
        one = m.group(1) in ("1", "one", "One")
        return f"{m.group(1)} {m.group(2)}{m.group(3)}{'' if one else 's'}"

    return _BARE.sub(r"\1s", _COUNTED.sub(counted, text))


def listed(names: Iterable[str]) -> str:
    """``names`` as a sentence lists them: "Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    items = list(names)
    if len(items) < 3:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
