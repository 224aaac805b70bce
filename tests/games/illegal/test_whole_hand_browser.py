"""Illegal in Chromium at 390×844: at the reveal a player picks the cards of the hand on the
"your move" card and sends the whole hand with one tap of its labelled button (one post,
one history line); the other phone and the TV show it. A card the deck has no more
copies of cannot be picked again (the limit the engine's check of the hand applies)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import BROWSER, join_links, too_wide
from tests.camera_rig import Rig
from tests.games.illegal import phone_hand
from tests.games.illegal.phone_hand import card_of, dealt_table, hand, seen, send

pytestmark = BROWSER

#: where the screenshots are copied for looking at them (besides artifacts/screenshots)
LOOK = Path("/tmp/shots-illegal")


@pytest.fixture
def rig(state_dir: Path) -> Iterator[Rig]:
    with dealt_table(state_dir) as r:
        yield r


def look(page: Any, name: str) -> None:
    phone_hand.look(page, name, LOOK)


def test_a_whole_hand_is_revealed_with_one_tap(rig: Rig, phone: Any, state_dir: Path) -> None:
    host = phone()
    links = join_links(host, rig.url, state_dir)
    ann, ben, tv = phone(), phone(), phone()
    for page, link, name in ((ann, links[0], "Ann"), (ben, links[1], "Ben")):
        page.goto(link)
        page.get_by_role("button", name=f"Join as {name}").click()
        page.wait_for_selector(".yourmove[data-built]")
    tv.goto(rig.url + "/")
    tv.wait_for_selector("#conn.live")
    send(rig, ann, "Play Market Open")
    send(rig, ben, "Play Market Open")
    send(rig, ann, "Play Day of Accounting")
    n = hand(rig, 0)
    assert n >= 6

    # the reveal: the whole hand in one go, or one card at a time
    card = card_of(ann)
    whole = card.get_by_role("button", name=f"Reveal your whole hand ({n} cards)", exact=True)
    expect(whole).to_be_visible()
    expect(card.get_by_role("button", name=f"Reveal one card at a time ({n} to go)",
                            exact=True)).to_be_visible()
    look(ann, "illegal-reveal-choice")
    whole.click()
    expect(card).to_contain_text(f"Tap each of your {n} cards")
    alibi = card.locator(".ym-choice", has_text="Alibi")
    for _ in range(5):  # the deck has five Alibis: a sixth cannot be picked
        alibi.click()
    expect(alibi).to_have_text("Alibi ×5")
    expect(alibi).to_be_disabled()
    rest = ["Informant", "White Coat", "Gambling (5\u202f000\u00a0€)"][: n - 5]
    for name in rest:
        card.get_by_role("button", name=name, exact=True).click()
    send_button = card.get_by_role("button", name=f"Reveal your whole hand ({n} cards)",
                                   exact=True)
    expect(send_button).to_be_visible()
    expect(card.locator(".ym-choice", has_text="Informant")).to_be_disabled()  # hand complete
    assert too_wide(ann) == []
    look(ann, "illegal-reveal-whole-hand-picked")
    posts: list[Any] = []
    ann.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
    send(rig, ann, f"Reveal your whole hand ({n} cards)")  # one tap, one post
    assert len(posts) == 1
    session = rig.table.session
    assert session is not None
    assert session.state.seats[0].revealed == ("alibi",) * 5 + tuple(
        {"Informant": "informant", "White Coat": "white_coat",
         "Gambling (5\u202f000\u00a0€)": "gambling"}[x] for x in rest)
    assert session.batches[-1].action.to_json()["do"] == "reveal"

    # the others see it: Ben's phone and the TV list Ann's revealed cards
    for page in (ben, tv):
        seen(rig, page)
        expect(page.locator("#live")).to_contain_text("Revealed: Alibi, Alibi, Alibi, Alibi, Alibi")
    expect(card_of(ann)).not_to_contain_text("Reveal your whole hand")
    look(ben, "illegal-reveal-seen-by-ben")
    look(tv, "illegal-reveal-seen-on-the-table")
    host.goto(rig.url + "/history")  # one line for the whole hand, in words
    expect(host.locator("body")).to_contain_text("Ann reveals the hand: 5\u00a0×\u00a0Alibi, Informant")
    look(host, "illegal-reveal-history")
