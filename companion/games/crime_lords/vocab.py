"""Crime Lords' words on the cards: the districts and Racket types the rulebook names.

The pick-lists a player chooses from when a card's stats are entered (a phone, the host's
deck page, a CSV import) offer these, plus "Other" (a one-of-a-kind Racket's own type, a
Weakness the list lacks) and, for a Weakness, "None". Values are compared by ``key``
(case, spaces and a plural "s" do not matter: "casino" is "Casinos"), so old records typed
in lower case keep their meaning; what a player typed is shown as typed.
docs/rules/crime_lords.md says where each word comes from.
"""

from __future__ import annotations

import re

from companion.games.cards import catalog_document

OTHER = "Other"
NONE = "None"
#: the pick-lists as the card data keeps them (``stats_choices``, the deck page reads the
#: same), each ending in "Other"
_LISTS: dict[str, list[str]] = catalog_document("crime_lords")["stats_choices"]
#: "The city is divided into five districts" (the rulebook, Districts)
DISTRICTS: tuple[str, ...] = tuple(w for w in _LISTS["district"] if w != OTHER)
#: the regular Rackets the rulebook names (Weaknesses name a Racket type too)
RACKET_TYPES: tuple[str, ...] = tuple(w for w in _LISTS["type"] if w != OTHER)


def key(text: str) -> str:
    """``text`` as compared: lower case, letters and digits only, no plural "s"."""
    folded = re.sub(r"[^a-z0-9]", "", text.lower())
    return folded[:-1] if folded.endswith("s") and len(folded) > 3 else folded


def canonical(text: str, words: tuple[str, ...]) -> str | None:
    """The word of ``words`` that ``text`` means ("north side" -> "North Side"), else None."""
    wanted = key(text)
    return next((w for w in words if key(w) == wanted), None)


def is_other(text: str) -> bool:
    return key(text) == key(OTHER)


def is_none(text: str) -> bool:
    return key(text) in ("", key(NONE))


def district_problem(text: str) -> str | None:
    """Why ``text`` is not a district (a sentence), or None."""
    if canonical(text, DISTRICTS) is not None or is_other(text):
        return None
    return (f"{text.strip()[:40]!r} is not a district: choose one of "
            f"{', '.join(DISTRICTS)} (or Other).")


def choice_problem(field: str, text: str) -> str | None:
    """Why ``text`` is not a value of the pick-list ``field`` (district, type or weakness),
    for an import that must be one of the lists (a sentence), or None."""
    if field == "district":
        return district_problem(text)
    words = RACKET_TYPES + ((NONE,) if field == "weakness" else ())
    if canonical(text, words) is not None or is_other(text):
        return None
    what = "Racket type" if field == "type" else "Weakness"
    return (f"{text.strip()[:40]!r} is not a {what}: choose one of {', '.join(words)} "
            "(or Other).")


def tidy(field: str, text: str) -> str:
    """A pick-list value in the list's own spelling ("casino" -> "Casinos"); anything
    else as typed (trimmed)."""
    words = {"district": DISTRICTS, "type": RACKET_TYPES,
             "weakness": RACKET_TYPES + (NONE,)}.get(field, ())
    if is_other(text):
        return OTHER
    return canonical(text, words) or text.strip()
