"""Illegal's whole-hand picker in Chromium at 390×844: what is chosen is plain to see.

At the reveal a player taps each card of the hand on the "your move" card. A chosen card
is filled, with a tick (and ×n for copies); a card still open is outlined; once the hand
is complete every other card is plainly not available (struck through, dashed, faded:
not merely greyed like the chosen ones), and a count beside the send button says how far
the hand is ("5 of 7 chosen"). "Start again" empties the hand. Every control is tapped by
its visible label; the screenshots are copied to /tmp/shots-phone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import BROWSER, join_links, too_wide
from tests.camera_rig import Rig
from tests.games.illegal import phone_hand
from tests.games.illegal.phone_hand import card_of, dealt_table, hand, send

pytestmark = BROWSER

LOOK = Path("/tmp/shots-phone")
ON = re.compile(r"\bon\b")
OFF = re.compile(r"\boff\b")


@pytest.fixture
def rig(state_dir: Path) -> Iterator[Rig]:
    with dealt_table(state_dir) as r:
        yield r


def look(page: Any, name: str) -> None:
    phone_hand.look(page, name, LOOK)


def style(button: Any) -> dict[str, str]:
    return dict(button.evaluate(
        "(b) => { const s = getComputedStyle(b); const tick = getComputedStyle(b, '::before');"
        " return {bg: s.backgroundColor, border: s.borderTopStyle, opacity: s.opacity,"
        " line: s.textDecorationLine, tick: tick.content, tickBorder: tick.borderRightWidth}; }"))


def box(locator: Any) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None
    return dict(found)


def test_the_chosen_cards_and_the_count_are_plain(rig: Rig, phone: Any, state_dir: Path) -> None:
    host = phone()
    links = join_links(host, rig.url, state_dir)
    ann, ben = phone(), phone()
    for page, link, name in ((ann, links[0], "Ann"), (ben, links[1], "Ben")):
        page.goto(link)
        page.get_by_role("button", name=f"Join as {name}").click()
        page.wait_for_selector(".yourmove[data-built]")
    send(rig, ann, "Play Market Open")
    send(rig, ben, "Play Market Open")
    send(rig, ann, "Play Day of Accounting")
    n = hand(rig, 0)
    assert n >= 6

    card = card_of(ann)
    card.get_by_role("button", name=f"Reveal your whole hand ({n} cards)", exact=True).click()
    expect(card).to_contain_text(f"Tap each of your {n} cards")
    go = card.get_by_role("button", name=f"Reveal your whole hand ({n} cards)", exact=True)
    count = card.locator(".ym-count")
    expect(count).to_have_text(f"0 of {n} chosen")
    expect(go).to_be_disabled()
    chips = card.locator(".ym-pick")
    labels = chips.all_text_contents()
    assert "Alibi" in labels and len(labels) >= n - 1
    open_look = style(chips.first)

    # Alibi twice: one chip, filled, ticked, "×2"; the count follows every tap
    alibi = card.get_by_role("button", name="Alibi", exact=True)
    alibi.click()
    expect(count).to_have_text(f"1 of {n} chosen")
    alibi = card.locator(".ym-pick", has_text="Alibi")
    alibi.click()
    expect(alibi).to_have_text("Alibi ×2")
    expect(alibi).to_have_class(ON)
    expect(alibi).to_have_attribute("aria-pressed", "true")
    expect(count).to_have_text(f"2 of {n} chosen")
    picked = style(alibi)
    assert picked["bg"] != open_look["bg"], (picked, open_look)
    assert picked["tick"] == '""' and picked["tickBorder"] != "0px"  # the drawn tick
    still_open = card.get_by_role("button", name=[x for x in labels if x != "Alibi"][0], exact=True)
    assert style(still_open)["tick"] in ("none", "normal")  # no tick on a card not chosen

    # the rest of the hand, one card each, until it is complete
    others = [x for x in labels if x != "Alibi"][: n - 2]
    for i, label in enumerate(others[:-1], start=3):
        card.get_by_role("button", name=label, exact=True).click()
        expect(count).to_have_text(f"{i} of {n} chosen")
    expect(go).to_be_disabled()
    look(ann, "phone-illegal-hand-one-to-go")
    card.get_by_role("button", name=others[-1], exact=True).click()
    expect(count).to_have_text(f"{n} of {n} chosen")
    expect(count).to_have_class(re.compile(r"\bdone\b"))
    expect(go).to_be_enabled()

    # complete: chosen cards stay filled and clear; every other card is plainly out
    for chip in [alibi, *(card.get_by_role("button", name=x, exact=True) for x in others)]:
        expect(chip).to_have_class(ON)
        assert style(chip)["opacity"] == "1" and style(chip)["bg"] == picked["bg"], chip
    rest = [x for x in labels if x not in others and x != "Alibi"]
    assert rest, labels
    for label in rest:
        chip = card.get_by_role("button", name=label, exact=True)
        expect(chip).to_be_disabled()
        expect(chip).to_have_class(OFF)
        out = style(chip)
        assert out["border"] == "dashed" and out["line"] == "line-through", (label, out)
        assert float(out["opacity"]) < 1 and out["bg"] != picked["bg"], (label, out)

    # the count stands beside the send button, on its line, left of it
    c, b = box(count), box(go)
    assert c["x"] + c["width"] <= b["x"] and c["y"] < b["y"] + b["height"] and b["y"] < c["y"] + c[
        "height"], (c, b)
    assert too_wide(ann) == []
    look(ann, "phone-illegal-hand-complete")

    # Start again: nothing chosen, every card open again
    card.get_by_role("button", name="Start again", exact=True).click()
    expect(count).to_have_text(f"0 of {n} chosen")
    expect(card.locator(".ym-pick.on")).to_have_count(0)
    expect(card.locator(".ym-pick.off")).to_have_count(0)
    expect(go).to_be_disabled()

    # the same hand again, sent with one tap
    for _ in range(2):
        card.locator(".ym-pick", has_text="Alibi").click()
    for label in others:
        card.get_by_role("button", name=label, exact=True).click()
    expect(count).to_have_text(f"{n} of {n} chosen")
    send(rig, ann, f"Reveal your whole hand ({n} cards)")
    session = rig.table.session
    assert session is not None
    revealed = session.state.seats[0].revealed
    assert revealed is not None and len(revealed) == n and revealed.count("alibi") == 2
