"""Amounts as players read them, written one way everywhere: the games' log lines and
status sentences and the web's filters (``web.render``: ``euros``, ``money``, ``points``,
``signed``) all call these. Digits grouped and never broken inside, the unit joined to
the number, and a negative amount with a true minus sign: "−67 000 €", never "-67 000 €"
(the log once wrote one and the standing beside it the other); a term of a sum as "+2"
or "−2", never "-2".

(``companion replay --json``'s plain wording, "65.000 €", is a file format frozen since
format 1, not something a player reads: Illegal's ``plain_euros`` keeps it.)
"""

from __future__ import annotations

#: the true minus sign (U+2212): a hyphen before a number reads as a dash on a TV
MINUS = "\u2212"
#: a narrow no-break space: groups digits ("67 000") and never lets a line break there
NNBSP = "\u202f"
#: a no-break space: joins a number to its unit ("5 000 €")
NBSP = "\u00a0"


def grouped(value: float, sep: str = NNBSP) -> str:
    """``value`` rounded to a whole number, its digits grouped by ``sep``, a negative one
    with a true minus sign: ``grouped(-67000)`` is "−67 000"."""
    text = f"{abs(value):,.0f}".replace(",", sep)
    return f"{MINUS}{text}" if round(value) < 0 else text


def euros(amount: float) -> str:
    """Euros: "65 000 €", "−67 000 €"."""
    return f"{grouped(amount)}{NBSP}€"


def dollars(amount: float) -> str:
    """Dollars, the minus before the sign: "$4,200", "−$1,300"."""
    text = grouped(amount, ",")
    return f"{MINUS}${text[1:]}" if text.startswith(MINUS) else f"${text}"


def signed(value: float) -> str:
    """A term of a sum with its sign always written, the minus a true one: "+2", "−2",
    "0" (Crime Lords' success number, term by term); grouped like every amount."""
    text = grouped(value)
    return f"+{text}" if round(value) > 0 else text
