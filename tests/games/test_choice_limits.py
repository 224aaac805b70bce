"""A choice's own limit in a ``some`` parameter with repeats (``Choice.most``): what it
offers, what it samples, what it sends to the phone; without limits nothing changes."""

from __future__ import annotations

from companion.games.moves import Choice, Param


def hand(*choices: Choice, size: int = 3) -> Param:
    return Param("hand", "Which cards?", "some", choices=choices, fewest=size, most=size,
                 repeat=True)


def test_a_choice_is_taken_at_most_its_own_most_times() -> None:
    p = hand(Choice("a", "A", most=1), Choice("b", "B", most=2), Choice("c", "C"))
    assert p.holds(["a", "b", "b"])
    assert p.holds(["c", "c", "c"])  # no limit of its own
    assert not p.holds(["a", "a", "b"])
    assert not p.holds(["b", "b", "b"])
    assert not p.holds(["a", "b"])  # fewer than fewest


def test_samples_keep_every_limit_from_both_ends() -> None:
    p = hand(Choice("a", "A", most=1), Choice("b", "B", most=1), Choice("c", "C", most=2))
    assert p.samples() == [["a", "b", "c"], ["c", "c", "b"]]
    assert all(p.holds(v) for v in p.samples())
    short = hand(Choice("a", "A", most=1), Choice("b", "B", most=1))
    assert short.samples() == []  # no hand of three fits: nothing to offer


def test_without_limits_the_samples_and_json_are_as_before() -> None:
    p = hand(Choice("a", "A"), Choice("b", "B"))
    assert p.samples() == [["a", "a", "a"]]
    assert p.to_json()["choices"] == [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]
    limited = hand(Choice("a", "A", most=2), Choice("b", "B"))
    assert limited.to_json()["choices"][0] == {"value": "a", "label": "A", "most": 2}
