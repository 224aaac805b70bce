"""What each table signal looks and sounds like: pure data, documented in README.md.

A pattern is a list of ``Step`` values played in order; ``pattern(name, seat, seats)``
builds the steps for one signal. ``seat`` is the seat the signal is about (the accused,
the penalised, the winner...); ``None`` means the whole table (every LED).
"""

from __future__ import annotations

from dataclasses import dataclass

Colour = tuple[float, float, float]

OFF: Colour = (0.0, 0.0, 0.0)
GREEN: Colour = (0.0, 1.0, 0.0)
BLUE: Colour = (0.0, 0.0, 1.0)
RED: Colour = (1.0, 0.0, 0.0)
AMBER: Colour = (1.0, 0.5, 0.0)
WHITE: Colour = (1.0, 1.0, 1.0)


@dataclass(frozen=True)
class Step:
    """Hold this output for ``seconds``: buzzer on or off, these seat LEDs lit, RGB colour."""

    seconds: float
    buzz: bool = False
    leds: frozenset[int] = frozenset()
    colour: Colour = OFF


def _who(seat: int | None, seats: int) -> frozenset[int]:
    return frozenset(range(seats)) if seat is None else frozenset({seat})


def _beeps(
    lengths: list[float], gap: float, leds: frozenset[int], colour: Colour
) -> list[Step]:
    """Beeps of the given lengths with ``gap`` between them; the LEDs follow the buzzer."""
    steps: list[Step] = []
    for i, length in enumerate(lengths):
        if i:
            steps.append(Step(gap))
        steps.append(Step(length, buzz=True, leds=leds, colour=colour))
    steps.append(Step(gap))
    return steps


def _blinks(n: int, on: float, leds: frozenset[int], colour: Colour) -> list[Step]:
    out: list[Step] = []
    for _ in range(n):
        out += [Step(on, leds=leds, colour=colour), Step(on)]
    return out


def pattern(name: str, seat: int | None, seats: int) -> list[Step]:
    """The steps for signal ``name`` (from ``companion.games.base.SIGNALS``); [] if silent."""
    who = _who(seat, seats)
    if name == "card":
        return [Step(0.08, leds=who, colour=GREEN), Step(0.02)]
    if name == "hesitation":  # one long beep, then the slow seat blinks
        return _beeps([0.6], 0.1, who, AMBER) + _blinks(3, 0.1, who, AMBER)
    if name == "penalty":
        return _beeps([0.15, 0.15], 0.1, who, AMBER)
    if name == "upheld":  # short-short-long on the accused seat
        return _beeps([0.1, 0.1, 0.4], 0.08, who, RED)
    if name == "not_upheld":  # long-short on the seat that takes cards
        return _beeps([0.4, 0.1], 0.1, who, BLUE)
    if name == "refused":  # two quick low blips
        return _beeps([0.06, 0.06], 0.06, who, RED)
    if name == "game_over":  # a chase round the table, three beeps, the winner blinks
        chase = [Step(0.1, leds=frozenset({i}), colour=WHITE) for i in range(seats)]
        return chase + _beeps([0.2, 0.2, 0.2], 0.1, who, GREEN) + _blinks(5, 0.15, who, GREEN)
    if name == "check_green":  # the camera check at boot: ready
        return [Step(0.1, buzz=True, leds=who, colour=GREEN), Step(0.9, leds=who, colour=GREEN),
                Step(0.1)]
    if name == "check_amber":  # playable, look at the host page
        return _beeps([0.1, 0.1], 0.15, who, AMBER) + _blinks(2, 0.3, who, AMBER)
    if name == "check_red":  # fix it first (the host page says how)
        return _beeps([0.5, 0.5, 0.5], 0.2, who, RED)
    return []  # "turn" and unknown names: the steady state says it


#: shown in README.md; a test checks that every signal in SIGNALS has a documented line
DESCRIPTIONS: dict[str, str] = {
    "card": "the seat's LED flashes once (80 ms), no sound",
    "turn": "the seat to play keeps its LED lit (RGB: blue) until the next signal",
    "hesitation": "one long beep (600 ms), then the slow seat's LED blinks 3 times",
    "penalty": "two beeps (150 ms), the penalised seat's LED with them",
    "upheld": "short-short-long (100, 100, 400 ms) with the accused seat's LED",
    "not_upheld": "long-short (400, 100 ms) with the LED of each seat that takes cards",
    "refused": "two quick blips (60 ms) with the seat's LED, or all LEDs for a host input",
    "game_over": "the LEDs chase round the table, three beeps, the winner's LED blinks "
    "5 times and stays lit",
    "check_green": "at start-up, the camera check is green: one short beep, every LED green "
    "for a second",
    "check_amber": "at start-up, the camera check is amber (playable; the host page says "
    "what to check): two short beeps, every LED blinks amber twice",
    "check_red": "at start-up, the camera check is red (fix it first; the host page says "
    "how): three long beeps with every LED red",
}
