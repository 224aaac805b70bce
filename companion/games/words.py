"""Words every game's shared screens need: plurals written out, never "Racket(s)"."""

from __future__ import annotations

import re

_COUNTED = re.compile(r"\b(\d+|one|One) ((?:[A-Z]?[a-z]+ )?)([A-Za-z]+)\(s\)")
_BARE = re.compile(r"\b([A-Za-z]+)\(s\)")


def plurals(text: str) -> str:
    """``text`` with each counted "(s)" written out: "1 Racket(s)" -> "1 Racket",
    "3 card(s)" -> "3 cards"; an uncounted "Racket(s)" -> "Rackets"."""

    def counted(m: re.Match[str]) -> str:
        one = m.group(1) in ("1", "one", "One")
        return f"{m.group(1)} {m.group(2)}{m.group(3)}{'' if one else 's'}"

    return _BARE.sub(r"\1s", _COUNTED.sub(counted, text))
