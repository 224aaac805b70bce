"""Crime Lords at a real table, in Chromium: three phones (390×844) and the host play a
whole game from the auction to victory with visible, labelled controls only, then a
second game reuses the stats entered in the first.

Drawn cards come from the camera: a synthetic camera (``tests.camera_rig``) renders the
deck's real QR codes landing in the center zone at scripted game times; the real decoder,
tracker and zones read them and the table books the draw. One fake clock drives it all and
frames are released up to a scripted time, so nothing depends on the machine's speed. In
the second game the table brings the stats the deck keeps for a card (no typing, no
separate "stats" action). At every step no phone may receive another player's money or showdown
stake (checked on each phone's own seat data and page). The final state must equal the
replay of the record the host exports.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.decks import Deck, card_serial, encode_payload, stored_stats
from companion.records import replay_lines
from tests.browser import BROWSER, join_links, shot, too_wide
from tests.camera_rig import Rig, camera_rig
from vision.synthetic import CardPlay

pytestmark = BROWSER

CENTER = [(0.3, 0.25), (0.7, 0.25), (0.7, 0.75), (0.3, 0.75)]  # the draw zone
#: the first game starts as the setup page would: 4 Rackets win, draws not counted
OPTIONS = {"rackets_to_win": 4, "draw_rule": "free"}
#: the cards drawn in front of the camera: (card, lands at, taken away at), game seconds
DRAWS = [("crook_20", 2.0, 4.0),    # Ann, first game: a new Crook, stats asked
         ("racket_05", 6.0, 8.0),   # Ben, first game: a new Racket, stats asked
         ("crook_20", 12.0, None)]  # Ann, second game: the deck knows him

ACTIONS = ("/action", "/cards/act/")
#: every snapshot a page receives is remembered, so a step can wait for its result
SEQ_SCRIPT = """
document.addEventListener("tc:snapshot", (e) => {
  window.__seq = Math.max(window.__seq || 0, e.detail.seq || 0);
});
document.addEventListener("DOMContentLoaded", () => {
  const live = document.querySelector("[data-last]");
  const seq = live ? parseInt((live.dataset.last || "0-0").split("-").pop(), 10) : 0;
  window.__seq = Math.max(window.__seq || 0, seq || 0);
});
"""


def _plays(deck: Deck) -> list[CardPlay]:
    plays = []
    for card, at, removed in DRAWS:
        serial = card_serial(deck, card)
        assert serial is not None
        plays.append(CardPlay(encode_payload(deck, serial), at=at, zone="center",
                              removed_at=removed, tag_px=110, angle=0.0))
    return plays


@pytest.fixture
def rig(state_dir: Path) -> Iterator[tuple[Rig, Deck]]:
    """A started three-player game; the camera shows ``DRAWS`` of the household deck."""
    deck = Deck.new("crime_lords", "home", state_dir)
    with camera_rig(state_dir, "crime_lords", ["Ann", "Ben", "Cy"], OPTIONS, _plays(deck),
                    {"center": CENTER}) as r:
        yield r, deck


class Game:
    """The players' phones, the host page and the table, with the steps a person takes."""

    def __init__(self, rig: Rig, host: Any, phones: list[Any], deck: Deck) -> None:
        self.rig, self.url, self.table = rig, rig.url, rig.table
        self.host, self.phones, self.deck = host, phones, deck
        self.pages = [host, *phones]

    # --- doing things -----------------------------------------------------------------

    def tap(self, page: Any, button: Any) -> int:
        """Tap a form's button; the table must accept; wait until every page shows it."""
        with page.expect_response(lambda r: r.request.method == "POST"
                                  and any(a in r.url for a in ACTIONS)) as info:
            button.click()
        body = info.value.json()
        assert body["accepted"], body["reason"]
        seq = self.table.hub.latest().seq  # the snapshot that shows it (or a later one)
        self.settle(seq)
        self.private_ok()  # at every step
        return seq

    def settle(self, seq: int) -> None:
        for page in self.pages:
            page.wait_for_function("(seq) => (window.__seq || 0) >= seq", arg=seq,
                                   timeout=20000)

    def button(self, page: Any, name: str) -> Any:
        return page.get_by_role("button", name=re.compile("^" + re.escape(name))).first

    def pick(self, page: Any, select: str, label: str) -> None:
        """Choose the option of ``select`` whose visible text starts with ``label``."""
        index = page.eval_on_selector(
            select, "(s, l) => [...s.options].findIndex((o) => !o.disabled && "
                    "o.textContent.trim().startsWith(l))", label)
        assert index >= 0, f"no option {label!r} in {select}"
        page.select_option(select, index=index)

    def open(self, page: Any, summary: str) -> None:
        details = page.locator("details", has=page.locator(f"summary:text-is('{summary}')"))
        if not details.first.evaluate("d => d.open"):
            page.locator(f"summary:text-is('{summary}')").first.click()

    def camera(self, t: float) -> int:
        """The camera's frames up to game time ``t`` read and booked (``DRAWS``)."""
        self.rig.run_until(t)
        seq = self.table.hub.latest().seq
        self.settle(seq)
        self.private_ok()
        return seq

    # --- checking -----------------------------------------------------------------------

    def private_ok(self) -> None:
        """No phone receives another player's money or showdown stake."""
        if not all("/seat/" in page.url for page in self.phones):
            return  # before the phones joined (the host's setup of a new game)
        for n, page in enumerate(self.phones):
            data = page.request.get(f"{self.url}/api/seat/{n}").json()
            leaks = list(_secret_paths(data))
            assert leaks == ["private.secrets.money"] or leaks == [
                "private.secrets.money", "private.secrets.showdown"], leaks
            other = (n + 1) % len(self.phones)
            assert page.request.get(f"{self.url}/api/seat/{other}").status == 403

    def alerts(self, *on: bool) -> None:
        """Each phone's turn alert (``attention`` in its seat view: the page's ``my-turn``,
        vibration and sound) is on exactly where ``on`` says."""
        for page, expected in zip(self.phones, on, strict=True):
            page.wait_for_function(
                "(on) => document.body.classList.contains('my-turn') === on", arg=expected,
                timeout=20000)

    def fits(self, name: str) -> None:
        for n, page in enumerate(self.phones):
            assert too_wide(page) == [], (n, too_wide(page))
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(self.phones[0], f"crime_lords-{name}")


def _secret_paths(data: Any, path: str = "") -> Any:
    """Paths of keys that hold a treasury or a showdown hand."""
    if isinstance(data, dict):
        for key, value in data.items():
            here = f"{path}.{key}" if path else key
            if here == "scores.hands":
                continue  # the shared scores shape: Racket counts per hand, not a stake
            if key in ("money", "hands", "showdown") and value is not None:
                yield here
            yield from _secret_paths(value, here)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _secret_paths(value, f"{path}[{i}]")


def _host_stats(g: Game, pre: str, stats: dict[str, Any]) -> None:
    ids = {"name": "name", "power": "power", "resistance": "res", "weakness": "weak",
           "income": "income", "district": "district", "type": "type",
           "boss_bonus": "bonus"}
    for key, value in stats.items():
        g.host.fill(f"#{pre}-{ids[key]}", str(value))


def _buy(g: Game, who: str, kind: str, slot: str, price: int, stats: dict[str, Any] | None) -> None:
    h = g.host
    g.open(h, f"A {kind.title()} was won")
    g.pick(h, f"#buy-seat-{kind}", who)
    h.fill(f"#buy-price-{kind}", str(price))
    g.pick(h, f"#buy-card-{kind}", slot)
    if stats:
        form = h.locator("form", has=h.locator(f"#buy-card-{kind}"))
        summary = form.locator("summary")
        if not form.locator("details").evaluate("d => d.open"):
            summary.click()
        _host_stats(g, f"buy-{kind}", stats)
    g.tap(h, h.locator("form", has=h.locator(f"#buy-card-{kind}")).get_by_role(
        "button", name="Record the sale"))


def _mobs(g: Game, names: dict[int, tuple[str, int]]) -> None:
    for seat, (name, bonus) in names.items():
        g.host.fill(f"#mob-{seat}-name", name)
        g.host.fill(f"#mob-{seat}-bonus", str(bonus))
        g.tap(g.host, g.button(g.host, "Give "))


def _boss(g: Game, seat: int, crook: str) -> None:
    g.pick(g.host, f"#boss-{seat}", crook)
    g.tap(g.host, g.host.locator("form", has=g.host.locator(f"#boss-{seat}")).get_by_role(
        "button", name="Make him Boss"))


def _start(g: Game, first: str) -> None:
    g.pick(g.host, "#first", first)
    g.tap(g.host, g.button(g.host, "Start: 50"))


def _new_game(g: Game, rackets: str) -> None:
    h = g.host
    h.goto(f"{g.url}/host/setup")
    h.select_option("#game", "crime_lords")
    for i, name in enumerate(("Ann", "Ben", "Cy"), start=1):
        h.fill(f"#player-{i}", name)
    h.get_by_label(rackets, exact=True).check()
    h.get_by_label("Not counted: the players keep track").check()
    with h.expect_response(lambda r: r.url.endswith("/api/host/start")) as info:
        h.get_by_role("button", name="Start the game").click()
    assert info.value.ok, info.value.status  # then the page goes to the host panel
    h.wait_for_url(f"{g.url}/host")
    h.wait_for_selector("#mob-card-0")


def _join(g: Game, state_dir: Path) -> None:
    links = join_links(g.host, g.url, state_dir)
    for n, page in enumerate(g.phones):
        page.goto(links[n])
        page.get_by_role("button").first.click()
        page.wait_for_url(f"**/seat/{n}")
    g.host.goto(f"{g.url}/host")


def _collect(g: Game, n: int, order: tuple[str, ...] = ()) -> None:
    p = g.phones[n]
    for name in order:
        p.locator(".payorder button", has_text=name).click()
    if order:
        preview = p.locator(".cl-pay-preview").inner_text()
        assert "Pay:" in preview and order[0] in preview, preview
    g.tap(p, g.button(p, "Collect income and pay the gang"))


def _attack(g: Game, n: int, kind: str, attacker: str, target: str, needed: int,
            money: int = 0) -> None:
    p = g.phones[n]
    g.pick(p, "#b-kind", kind)
    g.pick(p, "#b-attacker", attacker)
    g.pick(p, "#b-target", target)
    if money:
        p.fill("#b-money", str(money))
    p.wait_for_function("(n) => document.querySelector('.cl-needed').textContent"
                        ".startsWith(String(n))", arg=needed)
    assert p.locator(".cl-terms tr").count() >= 2
    g.tap(p, g.button(p, "Announce the attack"))


def _showdown(g: Game, hands: dict[int, tuple[int, str | None]]) -> None:
    """Every phone enters its hand; before the last, nobody sees another's stake; the
    phones still to enter theirs are alerted."""
    for i, (n, (amount, side)) in enumerate(hands.items()):
        g.alerts(*(x in list(hands)[i:] for x in range(len(g.phones))))
        p = g.phones[n]
        p.fill("#sd-amount", str(amount))
        if side:
            p.check(f"#sd-{side}")
        last = i == len(hands) - 1
        g.tap(p, g.button(p, "Put my hand on the table"))
        if not last:
            g.private_ok()
            for other, page in enumerate(g.phones):
                text = page.locator("#attack").inner_text()
                assert "Hands on the table" in text and f"{amount} G" not in text, (other, text)
                if other == n:
                    assert f"Your showdown hand: {amount}" in page.locator(".secret").first.inner_text()


def _roll(g: Game, n: int, dice: tuple[int, int], under: str | None = None) -> None:
    p = g.phones[n]
    p.select_option("#die-1", str(dice[0]))
    p.select_option("#die-2", str(dice[1]))
    if under:
        g.pick(p, "#roll-under", under)
    g.tap(p, g.button(p, "Enter the dice"))


def _more(g: Game, n: int) -> Any:
    p = g.phones[n]
    g.open(p, "More actions: move, visit, drop, gifts, Boss…")
    return p


def _stats_on_phone(g: Game, n: int, stats: dict[str, Any]) -> None:
    p = g.phones[n]
    p.wait_for_selector("#pend-name")
    ids = {"name": "name", "power": "power", "resistance": "res", "income": "income",
           "district": "district", "type": "type"}
    for key, value in stats.items():
        p.fill(f"#pend-{ids[key]}", str(value))
    g.tap(p, g.button(p, "Save the stats"))


MOM = {"name": "Mom", "power": 6, "resistance": 4, "weakness": "Casinos"}
BRO = {"name": "Bro", "power": 4, "resistance": 2}
JUDGE = {"name": "Judge", "power": 5, "resistance": 5}
SHY = {"name": "Shyster", "power": 2, "resistance": 1}
TONY = {"name": "Tony", "power": 4, "resistance": 3}
SAL = {"name": "Sal", "power": 2, "resistance": 2}
NAILS = {"name": "Nails", "power": 2, "resistance": 1}
CASINO = {"name": "North Casino", "income": 4, "resistance": 3, "district": "North Side",
          "type": "Casinos"}
NUMBERS = {"name": "East Numbers", "income": 3, "resistance": 3, "district": "East Side",
           "type": "Numbers"}
LOANS = {"name": "West Loans", "income": 2, "resistance": 2, "district": "West Side",
         "type": "Loan Shark"}
BARS = {"name": "West Bars", "income": 2, "resistance": 2, "district": "West Side",
        "type": "Bars"}
SOUTH_BARS = {"name": "South Bars", "income": 1, "resistance": 2, "district": "South Side",
              "type": "Bars"}
CENTRAL = {"name": "Central Numbers", "income": 2, "resistance": 2, "district": "Central",
           "type": "Numbers"}


@pytest.mark.slow
def test_a_whole_game_at_the_table_then_stats_reused(
    rig: tuple[Rig, Deck], state_dir: Path,
    phone: Callable[..., Any], tv: Callable[..., Any],
) -> None:
    r, deck = rig
    live_url, table = r.url, r.table
    host = phone()
    phones = [phone() for _ in range(3)]
    for page in (host, *phones):
        page.add_init_script(SEQ_SCRIPT)
    join_links(host, live_url, state_dir)  # signs the host in
    g = Game(r, host, phones, deck)
    _join(g, state_dir)

    # --- setup on the host page: Mobs, the auction, Bosses, the center --------------
    _mobs(g, {0: ("Old Family", 3), 1: ("Syndicate", 2), 2: ("Tongs", 1)})
    _buy(g, "Ann", "crook", "Crook 01", 9, MOM)
    _buy(g, "Ann", "crook", "Crook 02", 5, BRO)
    _buy(g, "Ben", "crook", "Crook 03", 10, JUDGE)
    _buy(g, "Ben", "crook", "Crook 04", 3, SHY)
    _buy(g, "Cy", "crook", "Crook 08", 8, TONY)
    _buy(g, "Cy", "crook", "Crook 09", 4, SAL)
    _buy(g, "Ann", "racket", "Racket 01", 6, CASINO)
    _buy(g, "Ben", "racket", "Racket 02", 6, NUMBERS)
    _buy(g, "Cy", "racket", "Racket 03", 5, LOANS)
    _buy(g, "Cy", "racket", "Racket 07", 5, BARS)
    for seat, boss in ((0, "Mom"), (1, "Judge"), (2, "Tony")):
        _boss(g, seat, boss)
    for seat in range(3):  # each starting Mob: the other Crook under the Boss
        form = host.locator("form", has=host.locator(f"#place-{seat}"))
        g.tap(host, form.get_by_role("button", name="Place"))
    g.open(host, "A Crook was turned up")
    g.pick(host, "#unc-card-crook", "Crook 11")
    host.locator("form", has=host.locator("#unc-card-crook")).locator("summary").click()
    _host_stats(g, "unc-crook", NAILS)
    g.tap(host, host.locator("form", has=host.locator("#unc-card-crook")).get_by_role(
        "button", name="Put it in the center"))
    g.open(host, "A Racket was turned up")
    g.pick(host, "#unc-card-racket", "Racket 08")
    host.locator("form", has=host.locator("#unc-card-racket")).locator("summary").click()
    _host_stats(g, "unc-racket", CENTRAL)
    g.tap(host, host.locator("form", has=host.locator("#unc-card-racket")).get_by_role(
        "button", name="Put it in the center"))
    shot(host, "crime_lords-host-setup")
    _start(g, "Ann")
    g.private_ok()
    g.alerts(True, False, False)

    # --- Ann: collect, a card from the camera (stats entered once), a recruit --------
    _collect(g, 0, ("Bro",))
    g.camera(3.0)  # Ann shows the card she drew to the camera
    assert table.session.state.pending == (0, "crook_20", "crook")  # type: ignore[union-attr]
    g.alerts(True, False, False)
    _stats_on_phone(g, 0, {"name": "Slim", "power": 1, "resistance": 1})
    assert stored_stats(Deck.load("home", state_dir), "crook_20") == {
        "name": "Slim", "power": 1, "resistance": 1}
    g.fits("draw-stats")
    _attack(g, 0, "Recruit", "Bro", "Nails", needed=3)
    _showdown(g, {0: (7, None), 1: (6, "against"), 2: (1, "for")})
    g.fits("recruit-revealed")
    _roll(g, 0, (1, 2), under="Bro")
    _attack(g, 0, "Recruit", "Mom", "Slim", needed=8)
    _showdown(g, {0: (0, None), 1: (0, "against"), 2: (0, "against")})
    _roll(g, 0, (2, 2), under="Nails")
    mob = table.session.state.mobs[0]  # type: ignore[union-attr]
    assert mob.crook("crook_11").superior == "crook_02"
    assert mob.crook("crook_20").superior == "crook_11"
    g.tap(phones[0], g.button(phones[0], "End my turn"))

    # --- Cy: a takeover of Ann's Casino; Ann names a protector; three secret hands ----
    _collect(g, 2)
    _attack(g, 2, "Take over", "Tony", "North Casino", needed=2)
    g.alerts(True, False, False)  # Ann names a protector, Cy waits for her
    g.pick(phones[0], "#prot-card", "Mom")
    g.tap(phones[0], g.button(phones[0], "Name the protector"))
    _showdown(g, {2: (16, None), 0: (2, None), 1: (5, "for")})
    g.fits("takeover-revealed")
    _roll(g, 2, (2, 3))
    assert table.session.state.owner("racket_01") == 2  # type: ignore[union-attr]
    g.tap(phones[2], g.button(phones[2], "End my turn"))

    # --- Ben: a Hit on Ann's Boss starts a Gang War -----------------------------------
    _collect(g, 1)
    g.camera(7.0)  # Ben draws a Racket: into the center once its stats are in
    phones[1].wait_for_selector("#pend-name")
    assert too_wide(phones[1]) == []
    shot(phones[1], "crime_lords-camera-racket-stats")
    _stats_on_phone(g, 1, SOUTH_BARS)
    assert stored_stats(Deck.load("home", state_dir), "racket_05") == SOUTH_BARS
    phones[2].wait_for_selector(".center li:has-text('South Bars')")
    _attack(g, 1, "Hit", "Judge", "Mom", needed=-7, money=5)
    p1 = phones[1]
    g.open(p1, "A special ability changes the number")
    p1.fill("#mod-value", "12")
    p1.fill("#mod-why", "Special card (made up for this test)")
    g.tap(p1, g.button(p1, "Add to the number"))
    _roll(g, 1, (1, 2))
    assert table.session.state.war is not None  # type: ignore[union-attr]
    assert "Gang War!" in phones[2].locator(".war").inner_text()
    g.fits("gang-war")
    p0 = phones[0]
    assert "Choose a new Boss" in p0.locator(".todo").inner_text()
    g.alerts(True, False, False)  # Ann: a new Boss, then her war turn
    g.pick(p0, "#boss-card", "Bro")
    g.tap(p0, g.button(p0, "Make him Boss"))
    g.tap(p0, g.button(p0, "Pass this war turn"))
    g.alerts(False, True, False)
    _attack(g, 1, "Hit", "Judge", "Nails", needed=6)
    _roll(g, 1, (6, 6))
    g.tap(p0, g.button(p0, "Pass this war turn"))
    g.tap(p1, g.button(p1, "Pass this war turn"))
    assert table.session.state.war is None  # type: ignore[union-attr]

    # --- Ann: broke after a gift, her pay-off sets off the Unhappy cascade -------------
    p0 = _more(g, 0)
    g.pick(p0, "#give-to-m", "Ben")
    money = table.session.state.mobs[0].money  # type: ignore[union-attr]
    p0.fill("#give-money", str(money - 4))
    g.tap(p0, p0.locator("form", has=p0.locator("#give-money")).get_by_role(
        "button", name="Give money"))
    _collect(g, 0)
    log = " ".join(table.session.state.log)  # type: ignore[union-attr]
    assert "Nails goes uncontrolled (third Unhappy marker)" in log
    assert "Slim goes uncontrolled (third Unhappy marker)" in log
    g.fits("cascade")
    g.tap(phones[0], g.button(phones[0], "End my turn"))

    # --- Cy takes the Central Numbers and controls the city ---------------------------
    _collect(g, 2)
    _attack(g, 2, "Take over", "Sal", "Central Numbers", needed=0)
    _showdown(g, {2: (9, None), 0: (0, "against"), 1: (0, "against")})
    _roll(g, 2, (3, 3))
    g.tap(phones[2], g.button(phones[2], "End my turn"))
    outcome = table.hub.latest().outcome
    assert outcome is not None and outcome["winner"] == [2]
    assert "Winner: Cy" in phones[1].locator(".outcome").inner_text()
    assert "Cy controls the city" in phones[1].locator(".status").first.inner_text()
    g.private_ok()
    g.fits("victory")
    shot(phones[2], "crime_lords-victory-cy")
    screen = tv()
    screen.goto(f"{live_url}/?tv=1")
    columns = screen.eval_on_selector(".cl .mobs", "m => getComputedStyle(m)"
                                      ".gridTemplateColumns.split(' ').length")
    assert columns == 3  # all Mobs side by side
    shot(screen, "crime_lords-tv")
    public = phone()
    public.goto(f"{live_url}/")
    public.wait_for_selector(".cl .mob")
    assert too_wide(public) == [] and public.evaluate("document.documentElement.scrollWidth") <= 390
    shot(public, "crime_lords-public")

    # --- the exported record replays to the same state --------------------------------
    host.goto(f"{live_url}/host")
    href = host.locator("a[href$='.jsonl']").first.get_attribute("href")
    record = host.request.get(f"{live_url}{href}").text()
    replay = replay_lines([line for line in record.splitlines() if line.strip()])
    session = table.session
    assert session is not None
    assert json.loads(json.dumps(session.engine.state_json(session.state))) == replay.state

    # --- a second game: the stats stored in the deck come back by themselves ----------
    _new_game(g, "4 Rackets")
    for page in phones:
        page.goto(page.url)
    _join(g, state_dir)
    _mobs(g, {0: ("Old Family", 3), 1: ("Syndicate", 2), 2: ("Tongs", 1)})
    for who, slot in (("Ann", "Crook 01"), ("Ben", "Crook 03"), ("Cy", "Crook 08")):
        assert "(stats stored)" in host.locator("#buy-card-crook").inner_text()
        _buy(g, who, "crook", slot, 5, None)
    for seat, boss in ((0, "Mom"), (1, "Judge"), (2, "Tony")):
        _boss(g, seat, boss)
    _start(g, "Ann")
    _collect(g, 0)
    g.camera(13.0)  # the camera alone: the table brings the stats the deck keeps
    phones[0].wait_for_selector(".center li:has-text('Slim')")
    assert phones[0].locator("#pend-name").count() == 0
    actions = [json.loads(line) for line in table.record_lines()[1:]]
    assert actions[-1]["do"] == "draw" and actions[-1]["card"] == "crook_20"
    assert actions[-1]["stats"] == {"name": "Slim", "power": 1, "resistance": 1}
    assert not [a for a in actions if a["do"] == "stats"]  # nobody sent them afterwards
    g.fits("second-game")
