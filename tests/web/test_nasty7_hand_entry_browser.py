"""A whole game of The Nasty 7 entered by hand by the host, in Chromium at 390×844.

No card lands on the pile in front of the camera: the host enters every card on the host
page, tapping only visible, labelled buttons of its "your move" card, and the host takes
its time (5 s between two entries, more than the 3 seconds of the rule). Nobody is
penalised for hesitating automatically: the time between two entries is the host's
typing (``hand_entry_timing`` "host_rules", the default). On the "who played it?" step
the player to play is the big button; a card of another player is "out of turn (takes the
pile)", in the warning look (never the yellow of the seat to play's button), and the page
asks once more before it costs that player the pile (once "No", once "Yes").

The camera sees two cards of the game land beside the pile (a player's stack, say): they
wait on the host's card, each with the time it landed, while the host enters cards, and
the host answers each.

Nothing depends on the machine's speed: one fake clock drives the table and the camera's
frames; frames are released up to a scripted time and decoded in lockstep.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.demo import demo_payloads
from tests.browser import BROWSER, SHOTS, join_links, shot, too_wide
from tests.camera_rig import Rig, camera_rig
from tests.wait import SAFETY
from vision.synthetic import CardPlay

pytestmark = BROWSER
expect.set_options(timeout=int(SAFETY * 1000))  # a safety net: nothing waits for a time

PILE = [(0.35, 0.3), (0.65, 0.3), (0.65, 0.7), (0.35, 0.7)]
#: the big button of the "your move" card (the player to play's card)
BIG = re.compile(r"\bym-big\b")
#: how long the camera's script runs (it ends two seconds after its last card leaves)
GAME_S = 60.0
#: the host's typing time between two cards: more than the rule's 3 seconds
TYPING_S = 5.0
#: a move that costs a player the pile: the warning look (Move.costly)
COSTLY = re.compile(r"\bym-costly\b")
#: where the screenshots are copied for looking at them (besides artifacts/screenshots)
LOOK = Path("/tmp/shots-phone")


def look(page: Any, name: str) -> None:
    shot(page, name)
    LOOK.mkdir(parents=True, exist_ok=True)
    shutil.copy(SHOTS / f"{name}.png", LOOK / f"{name}.png")


def paint(button: Any) -> tuple[str, str]:
    """A button's background and border colours as the page paints them."""
    return tuple(button.evaluate(
        "(b) => { const s = getComputedStyle(b); return [s.backgroundColor, s.borderTopColor]; }"))


@pytest.fixture
def rig(state_dir: Path) -> Iterator[Rig]:
    payloads = demo_payloads("nasty7")
    beside = [CardPlay(payloads["racketeer"][40], at=1.0, position=(0.12, 0.8),
                       tag_px=110, angle=0.0, removed_at=GAME_S),
              CardPlay(payloads["phone"][5], at=2.0, position=(0.88, 0.25),
                       tag_px=110, angle=0.0, removed_at=GAME_S)]
    with camera_rig(state_dir, "nasty7", ["Ann", "Ben", "Cy"], {"deck_size": 6}, beside,
                    {"pile": PILE}) as r:
        yield r


def posted(page: Any, rig: Rig, button: Any) -> None:
    """Tap ``button``, which sends the host's action: accepted, and drawn on the page."""
    expect(button).to_be_visible()
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        button.click()
    body = answer.value.json()
    assert body["accepted"], body
    seq = rig.table.hub.latest().seq
    page.wait_for_function(
        "(seq) => Number(document.querySelector('#host-live').dataset.seen) >= seq", arg=seq)


def test_a_whole_game_entered_by_hand_has_no_automatic_hesitation(rig: Rig, phone: Any,
                                                                   state_dir: Path) -> None:
    host = phone()
    join_links(host, rig.url, state_dir)
    host.goto(rig.url + "/host")
    host.wait_for_selector("#conn.live")
    controls = host.locator("#host-live")
    card = controls.locator(".yourmove")
    t = 0.0

    def later() -> None:
        nonlocal t
        t += TYPING_S
        rig.run_until(t)  # the clock moves on; every deadline due by then is delivered

    def by_hand(name: str, which: str) -> None:
        later()
        big = card.get_by_role("button", name=f"{name} played a card", exact=True)
        expect(big).to_have_class(BIG)
        big.click()
        expect(card).to_contain_text(f"Which card did {name} play?")
        posted(host, rig, card.get_by_role("button", name=which, exact=True))

    # The camera saw two cards land beside the pile: both wait, with their landing times.
    rig.run_until(2.6)
    t = 2.6
    queue = rig.view()["seen_beside"]
    assert [(c["card_name"], c["name"]) for c in queue] == [("Racketeer", "Ann"),
                                                             ("Mobile phone", "Ann")]
    assert 0.7 <= queue[0]["at"] <= 1.1 and 1.7 <= queue[1]["at"] <= 2.1  # as they landed
    first = queue[0]["clock"]
    expect(controls).to_contain_text("Seen beside the pile: 2 waiting for your answer")
    expect(controls).to_contain_text(f"Racketeer, landed at {first} while Ann was to play")
    expect(controls).to_contain_text(
        f"Mobile phone, landed at {queue[1]['clock']} while Ann was to play")

    # Ann's and Ben's cards, entered by hand: the questions still wait.
    by_hand("Ann", "Racketeer")
    by_hand("Ben", "Mobile phone")
    assert len(rig.view()["seen_beside"]) == 2 and rig.view()["pile"] == 2
    expect(controls).to_contain_text("Seen beside the pile: 2 waiting for your answer")
    shot(host, "nasty7-hand-queue")
    assert too_wide(host) == []
    later()
    posted(host, rig, card.get_by_role(
        "button", name=f"Ignore a Racketeer (seen at {first}): not a card played", exact=True))
    posted(host, rig, card.get_by_role("button", name="Ignore it: not a card played",
                                       exact=True))
    assert rig.view()["seen_beside"] == []
    expect(controls).not_to_contain_text("Seen beside the pile")

    # Cy to play, but Ann put a card down: the host says so, and is asked once more.
    # The seat to play is the big yellow button; a card out of turn says what it costs and
    # has the warning look: another background and border than the seat to play's.
    later()
    big = card.get_by_role("button", name="Cy played a card", exact=True)
    expect(big).to_have_class(BIG)
    expect(big).not_to_have_class(COSTLY)
    late = [card.get_by_role("button", name=f"{n} played out of turn (takes the pile)",
                             exact=True) for n in ("Ann", "Ben")]
    for button in late:
        expect(button).to_be_visible()
        expect(button).to_have_class(COSTLY)
        assert paint(button)[0] != paint(big)[0] and paint(button)[1] != paint(big)[1]
    warning = host.evaluate("() => getComputedStyle(document.body).getPropertyValue('--bad')")
    assert warning.strip() and paint(late[0])[1] == host.evaluate(
        "(c) => { const b = document.createElement('b'); b.style.color = c; document.body.append(b);"
        " const out = getComputedStyle(b).color; b.remove(); return out; }", warning.strip())
    shot(host, "nasty7-hand-who-played-it")
    look(host, "phone-nasty7-who-played-it")
    late[0].click()
    card.get_by_role("button", name="Racketeer", exact=True).click()
    expect(card).to_contain_text(
        "Ann played out of turn: Ann takes the pile (3 cards with this one) and starts the "
        "next round. Is that right?")
    yes = card.get_by_role("button", name="Yes: Ann takes the pile", exact=True)
    expect(yes).to_have_class(COSTLY)
    expect(card.get_by_role("button", name="No: Cy played it", exact=True)).not_to_have_class(
        COSTLY)
    shot(host, "nasty7-hand-out-of-turn-sure")
    look(host, "phone-nasty7-out-of-turn-sure")
    assert too_wide(host) == []
    posted(host, rig, yes)
    expect(controls).to_contain_text("Ann played out of turn; the count was 3; Ann starts the next round")
    assert [s["cards"] for s in rig.view()["seats"]] == [3, 1, 2]

    # Round 2: Ann, then Cy's card by mistake under "out of turn": "No", it was Ben's.
    by_hand("Ann", "Racketeer")
    later()
    card.get_by_role("button", name="Cy played out of turn (takes the pile)", exact=True).click()
    card.get_by_role("button", name="Gun", exact=True).click()
    posted(host, rig, card.get_by_role("button", name="No: Ben played it", exact=True))
    assert [s["cards"] for s in rig.view()["seats"]] == [2, 0, 2]  # Ben's last card
    expect(controls).to_contain_text("Ben played their last card: accuse now, or Ben wins")
    shot(host, "nasty7-hand-last-card")

    # Nobody accuses; Cy's card ends the game: Ben wins.
    by_hand("Cy", "Racketeer")
    outcome = rig.table.hub.latest().outcome
    assert outcome is not None and outcome["winner"] == 1
    # the end sentence is said once on the host's page: by the table's status, not again
    # above the host's tools (tests/web/test_end_sentence.py)
    expect(host.locator("body")).to_contain_text("Ben wins!")
    assert host.locator("body").inner_text().count("Ben wins!") == 1
    shot(host, "nasty7-hand-over")

    # Every card was the host's; no hesitation penalty came from the clock.
    table = rig.table
    assert table.session is not None and table.info is not None
    done = [b.action.do for b in table.session.batches]
    assert done.count("missed_card") == 6 and "play" not in done
    assert "deadline" not in [b.kind for b in table.session.batches]
    taken = [e.payload for e in table.store.events(table.info.game_id) if e.type == "PileTaken"]
    assert [p["why"] for p in taken] == ["out_of_turn"]
