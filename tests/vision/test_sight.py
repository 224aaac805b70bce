"""Whether glare hides the pile (``vision.sight``): the check's glare trials in, the
``PileSight`` turns out. No images: each trial is the check's parts as they would be."""

from __future__ import annotations

from companion.inputs import PileSight
from vision.sight import BLIND_AFTER, CLEAR_AFTER, PILE_ZONES, PileSightWatch, lost_parts

LOST = {"pile": {"bottom-right": "lost"}}
BARELY = {"pile": {"bottom-right": "barely"}}
CLEAN: dict[str, dict[str, str]] = {"pile": {}}


def turns(*trials: dict[str, dict[str, str]]) -> list[tuple[int, bool]]:
    """The trials one second apart: (trial number, blind) of each PileSight said, by a
    watch that turns blind on one lost trial (how it clears is the same by default)."""
    watch = PileSightWatch(blind_after=1)
    out = []
    for i, parts in enumerate(trials):
        sight = watch.trial(float(i), parts)
        if sight is not None:
            assert sight == PileSight(float(i), sight.blind)  # the trial's frame time
            out.append((i, sight.blind))
    return out


def test_the_pile_zones_are_the_nasty_7s() -> None:
    assert PILE_ZONES == {"pile", "play"}


def test_blind_at_the_first_lost_part_clear_after_two_clean_trials() -> None:
    assert CLEAR_AFTER == 2
    assert turns(CLEAN, LOST, LOST, CLEAN, CLEAN, CLEAN) == [(1, True), (4, False)]


def test_clear_is_the_default_nothing_is_said_at_start() -> None:
    assert turns(CLEAN, CLEAN, BARELY, CLEAN) == []
    watch = PileSightWatch()
    assert watch.blind is False


def test_blind_at_the_very_first_trial() -> None:
    watch = PileSightWatch(blind_after=1)
    assert watch.trial(7.5, LOST) == PileSight(7.5, True)
    assert watch.blind is True


def test_by_default_the_same_part_lost_on_two_trials_in_a_row() -> None:
    """A card's white stock under a fingertip is lost on one trial; a reflection stays."""
    assert BLIND_AFTER == 2
    watch = PileSightWatch()
    assert watch.trial(7.5, LOST) is None and watch.blind is False
    assert watch.trial(8.5, LOST) == PileSight(8.5, True)


def test_one_good_sample_between_lost_ones_is_not_enough() -> None:
    """A lamp's reflection flickers: lost, barely, lost, clean, lost ... one turn."""
    assert turns(LOST, BARELY, LOST, CLEAN, LOST, BARELY, LOST) == [(0, True)]


def test_barely_is_no_lost_part_two_in_a_row_clear() -> None:
    assert turns(LOST, BARELY, BARELY) == [(0, True), (2, False)]


def test_blind_again_after_clear() -> None:
    assert turns(LOST, CLEAN, CLEAN, LOST, CLEAN, CLEAN) == \
        [(0, True), (2, False), (3, True), (5, False)]


def test_only_the_pile_zones_count() -> None:
    seat = {"pile": {}, "seat:0": {"middle": "lost"}, "discard": {"top": "lost"}}
    assert not lost_parts(seat)
    assert turns(seat, seat) == []
    assert lost_parts({"play": {"left": "lost"}, "seat:1": {}}) == {("play", "left")}
    assert turns({"play": {"left": "lost"}}) == [(0, True)]


def test_no_pile_zone_drawn_says_nothing() -> None:
    """The check names the whole frame "play area" when no zone is drawn."""
    assert turns({"play area": {"middle": "lost"}}, {"seat:2": {"top": "lost"}}) == []


def test_a_pile_no_longer_drawn_clears_in_time() -> None:
    assert turns(LOST, {"seat:0": {}}, {"seat:0": {}}) == [(0, True), (2, False)]


def test_blind_after_two_needs_the_same_part_lost_twice_in_a_row() -> None:
    """The option for the lead (``BLIND_AFTER`` = 2): a card under a fingertip is lost in
    one part on one trial, in another on the next; a reflection stays in its part."""
    def blind_after_2(*trials: dict[str, dict[str, str]]) -> list[tuple[int, bool]]:
        watch = PileSightWatch(blind_after=2)
        return [(i, s.blind) for i, parts in enumerate(trials)
                if (s := watch.trial(float(i), parts)) is not None]

    top = {"pile": {"top": "lost"}}
    assert blind_after_2(LOST, top, LOST, CLEAN, LOST) == []
    assert blind_after_2(LOST, LOST, LOST, CLEAN, CLEAN) == [(1, True), (4, False)]
    assert blind_after_2(LOST, CLEAN, LOST, BARELY, LOST) == []
    both = {"pile": {"top": "lost", "bottom-right": "lost"}}
    assert blind_after_2(top, both, LOST) == [(1, True)]
    assert blind_after_2(LOST, {"play": {"bottom-right": "lost"}}) == []  # another zone
    # blind, one lost part anywhere keeps it blind
    assert blind_after_2(LOST, LOST, top, CLEAN, top, CLEAN, CLEAN) == [(1, True), (6, False)]
