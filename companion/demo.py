"""``companion serve --demo``: a whole table with no hardware.

A synthetic camera renders the demo deck's real QR tags being played onto the pile
of a Nasty 7 game; frames go through the real decoder and tracker, the table loop and
the store; simulated buttons (gpiozero's mock pins, through the real hardware layer)
call an accusation now and then; the dashboard shows it all. Rounds end with a pause
longer than the 3-second rule, so a hesitation penalty is seen on the page.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion import games
from companion.inputs import HOST, TABLE, Command, Source
from companion.table import Table

log = logging.getLogger(__name__)

DEMO_PLAYERS = ("Ann", "Ben", "Cy")
#: cards per round (then a pause of PAUSE_S: a hesitation penalty) — varied a little
ROUND_SIZES = (6, 9, 5, 8, 7)
INTERVAL_S = 1.3
PAUSE_S = 4.2
#: one card in this many is a twin / phone / gun (the rest racketeers)
MIX = ("racketeer", "racketeer", "twin_racketeer", "racketeer", "phone", "racketeer",
       "gun", "racketeer", "twin_phone", "racketeer")


@dataclass(frozen=True)
class DemoPlay:
    payload: str
    at: float
    removed_at: float


def demo_plays(payloads_by_kind: dict[str, list[str]], rounds: int = 12) -> list[DemoPlay]:
    """The demo script: rounds of cards onto the pile, each ended by a long pause.

    A pile is lifted off the table (the penalised player takes it) just after the
    3-second rule fell, and no physical card appears twice in one script.
    """
    used = {kind: 0 for kind in payloads_by_kind}
    plays: list[DemoPlay] = []
    t, k = 2.0, 0
    for r in range(rounds):
        round_plays = []
        for _ in range(ROUND_SIZES[r % len(ROUND_SIZES)]):
            kind = MIX[k % len(MIX)]
            k += 1
            pool = payloads_by_kind.get(kind) or payloads_by_kind["racketeer"]
            payload = pool[used.get(kind, 0) % len(pool)]
            used[kind] = used.get(kind, 0) + 1
            round_plays.append((payload, t))
            t += INTERVAL_S
        lifted = t - INTERVAL_S + 3.6  # after the penalty at +3.0 s
        plays.extend(DemoPlay(p, at, lifted) for p, at in round_plays)
        t += PAUSE_S - INTERVAL_S
    return plays


def demo_payloads(game: str) -> dict[str, list[str]]:
    """The demo deck's tag texts, by card kind (the deck is made on first use)."""
    from companion.decks import demo_deck, encode_payload

    deck = demo_deck(game)
    out: dict[str, list[str]] = {}
    for serial, card in deck.physical():
        out.setdefault(card.id, []).append(encode_payload(deck, serial))
    return out


def start_demo_game(table: Table, game: str, players: Sequence[str] = DEMO_PLAYERS,
                    ) -> None:
    """Start a fresh demo game unless one is running and not over."""
    snap = table.hub.latest()
    if snap.game == game and snap.outcome is None:
        return
    result = table.submit(Command("start", {"game": game, "players": list(players)},
                                  source=HOST)).result(10)
    if not result.accepted:
        raise RuntimeError(f"the demo could not start {game}: {result.reason}")


class _Background:
    """A demo part that runs ``_run`` in its own daemon thread until ``stop()``."""

    def __init__(self, name: str) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        raise NotImplementedError


class Director(_Background):
    """Keeps the demo going: presses a simulated seat button now and then, rules on the
    accusation with the host buttons, now and then plays the host who saw a skipped
    player put down the card after a twin (the host's "that card was played by …": the
    skipped player takes the pile), and starts a new game a while after one ends."""

    def __init__(self, table: Table, press: Callable[[str, int | None], None] | None,
                 game: str | None = None, every_s: float = 23.0, correct_every_s: float = 41.0,
                 ) -> None:
        super().__init__("demo-director")
        self.table, self.press, self.every_s = table, press, every_s
        self.game = game or games.first_with("camera_demo").name
        self.correct_every_s = correct_every_s
        self._skipper: tuple[int, int] | None = None  # (skipped seat, pile size after the twin)

    def _run(self) -> None:
        next_accuse = time.monotonic() + self.every_s
        next_correction = time.monotonic() + self.correct_every_s
        over_since: float | None = None
        while not self._stop.wait(0.5):
            snap = self.table.hub.latest()
            if snap.outcome is not None or snap.game is None:
                over_since = over_since or time.monotonic()
                if time.monotonic() - over_since > 10:
                    start_demo_game(self.table, self.game)
                    over_since = None
                continue
            if time.monotonic() >= next_correction and self.reassign_skipped(snap.public):
                next_correction = time.monotonic() + self.correct_every_s
            if self.press is not None and time.monotonic() >= next_accuse:
                next_accuse = time.monotonic() + self.every_s
                self._accuse(snap.public)

    def reassign_skipped(self, view: object) -> bool:
        """After a twin, the host says the next card was the skipped player's; True once sent."""
        if not isinstance(view, dict):
            return False
        pile, skipping = view.get("pile"), view.get("skipping")
        if isinstance(skipping, int) and isinstance(pile, int):
            self._skipper = (skipping, pile)
            return False
        if self._skipper is None or not view.get("correctable"):
            return False
        seat, after_twin = self._skipper
        self._skipper = None
        if pile != after_twin + 1 or view.get("last_player") == seat:
            return False
        result = self.table.submit(Command("action", {"action": {"do": "reassign", "by": seat}},
                                           source=HOST)).result(10)
        return bool(result.accepted)

    def _accuse(self, view: object) -> None:
        """A seat that did not play last accuses; the host rules a moment later."""
        assert self.press is not None
        last = view.get("last_player") if isinstance(view, dict) else None
        if not isinstance(last, int):
            return
        accuser = (last + 1) % len(DEMO_PLAYERS)
        self.press("seat", accuser)
        if not self._stop.wait(2.0):
            self.press("confirm" if int(time.monotonic()) % 2 else "next", None)


def demo_record(game: str) -> list[str]:
    """The packaged demo record of ``game`` (companion/demos/<game>.jsonl) as lines."""
    from importlib import resources

    text = resources.files("companion").joinpath("demos", f"{game}.jsonl").read_text("utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def has_demo_record(game: str) -> bool:
    from importlib import resources

    return resources.files("companion").joinpath("demos", f"{game}.jsonl").is_file()


def source_of(action: dict[str, object], game: str | None = None) -> Source:
    """Who sends a recorded action at the demo table, by the action's ``by`` in ``game``:
    the table itself for what its camera or buttons send, the host for the host's, else
    that seat's phone (the host when the line names no seat)."""
    do = action.get("do")
    kind = games.get(game).actions.kinds.get(do) if game and isinstance(do, str) else None
    if kind is not None and kind.by == "table":
        return TABLE
    if kind is not None and kind.by == "host":
        return HOST
    seat = action.get("seat")
    return Source.of_seat(seat) if isinstance(seat, int) and not isinstance(seat, bool) else HOST


class RecordPlayer(_Background):
    """Plays a recorded game at the table as phones and host would: one command at a
    time through ``Table.submit`` (so through the same checks and the store), paced
    between ``min_gap`` and ``max_gap`` seconds; starts again a while after the end."""

    def __init__(self, table: Table, lines: Sequence[str], min_gap: float = 1.2,
                 max_gap: float = 2.5) -> None:
        import json

        super().__init__("demo-record")
        self.table, self.min_gap, self.max_gap = table, min_gap, max_gap
        self.header = json.loads(lines[0])
        self.actions = [json.loads(line) for line in lines[1:]]
        self.refused: list[str] = []

    def play_once(self) -> None:
        """Start the recorded game and send every action (refusals are kept, not fatal)."""
        args = {"game": self.header["game"], "players": self.header["seats"],
                "options": self.header.get("options", {}), "seed": self.header.get("seed", 0)}
        started = self.table.submit(Command("start", args)).result(10)
        if not started.accepted:
            raise RuntimeError(f"the demo could not start: {started.reason}")
        last_t = 0.0
        for line in self.actions:
            t = float(line.pop("t", last_t))
            gap = min(self.max_gap, max(self.min_gap, t - last_t))
            last_t = t
            if self._stop.wait(gap):
                return
            action = dict(line)
            cmd = (Command("undo") if action.get("do") == "undo"
                   else Command("action", {"action": action},
                                source=source_of(action, self.header["game"])))
            result = self.table.submit(cmd).result(10)
            if not result.accepted:
                self.refused.append(f"{action}: {result.reason}")
                log.warning("demo action refused: %s (%s)", action, result.reason)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.play_once()
            if self._stop.wait(15.0):
                return
