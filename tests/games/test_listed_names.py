"""Names on a shared screen read as a sentence lists them (``companion.games.words.listed``):
a showdown of eight Mobs says "Ann, Ben, … and Hal", never "Ann and Ben and … and Hal"."""

from __future__ import annotations

from companion.games.words import listed


def test_one_two_and_many_names() -> None:
    assert listed([]) == ""
    assert listed(["Ann"]) == "Ann"
    assert listed(["Ann", "Ben"]) == "Ann and Ben"
    assert listed(iter(["Ann", "Ben", "Cy"])) == "Ann, Ben and Cy"
    assert listed(["Ann", "Ben", "Cy", "Dee"]).count(" and ") == 1
