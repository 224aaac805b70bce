"""Illegal: whole games played with a real (simulated) shuffled deck against the engine.

The simulation holds the hidden hands the engine never sees; after every action the
engine's hand sizes and draw pile must equal the physical ones, and the accounting must
equal a separate count of the revealed hands. ``python tests/games/illegal/test_sim.py``
rewrites the recorded games in tests/records/illegal/ from fixed seeds.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalAction, Setup
from companion.games.cards import catalog
from companion.games.illegal import CHOOSE, MORE, OVER, State, engine, play_reason
from companion.records import VERSION

RECORDS = Path(__file__).resolve().parents[2] / "records" / "illegal"
VALUE = {c.id: c.value for c in catalog("illegal").cards}
KIND = {c.id: c.kind for c in catalog("illegal").cards}


def by_hand(open_cards: tuple[str, ...], hand: list[str]) -> int:
    """The accounting as the rules state it, counted separately from the engine."""
    minus = sum(VALUE[c] for c in hand if KIND[c] == "paranoia")
    business = [VALUE[c] for c in hand if KIND[c] in ("legal_business", "illegal_business")]
    return sum(VALUE[c] for c in open_cards) - minus - max(business, default=0)


class Table:
    """A physical table: a shuffled deck, hidden hands, and the engine following it."""

    def __init__(self, seats: int, seed: int, options: dict[str, Any]) -> None:
        self.rng = random.Random(seed)
        self.setup = Setup(tuple(["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:seats]), options)
        self.state: State = engine.new_game(self.setup)
        self.actions: list[dict[str, Any]] = []
        self.deal()

    def deal(self) -> None:
        deck = [c.id for _, c in catalog("illegal").physical()]
        self.rng.shuffle(deck)
        self.hands = [[deck.pop() for _ in range(7)] for _ in self.state.seats]
        self.deck = deck

    # --- acting ------------------------------------------------------------------------

    def act(self, action: dict[str, Any]) -> None:
        events = engine.decide(self.state, action, 0.0)
        self.actions.append(action)
        for event in events:
            self.state = engine.apply(self.state, event)
            self.follow(event)
        assert [len(h) for h in self.hands] == [s.hand for s in self.state.seats]
        assert len(self.deck) == self.state.draw_pile

    def follow(self, e: Any) -> None:
        """Move the physical cards as the event says."""
        name = type(e).__name__
        if name == "CardPlayed":
            self.hands[e.seat].remove(e.card)
        elif name == "CardsDiscarded":
            for c in e.cards:
                self.hands[e.seat].remove(c)
        elif name == "CardDrawn":
            self.hands[e.seat].extend(self.deck.pop() for _ in range(e.count))
        elif name == "CardsPassed":
            passed = [h.pop(self.rng.randrange(len(h))) if h else None for h in self.hands]
            for i, c in enumerate(passed):
                if c is not None:
                    self.hands[(i + 1) % len(self.hands)].append(c)
        elif name == "CardsTraded":
            for _ in range(e.gave):
                mine = self.hands[e.seat]
                self.hands[e.other].append(mine.pop(self.rng.randrange(len(mine))))
            for _ in range(e.got):
                theirs = self.hands[e.other]
                # the card just given is not given back
                pick = self.rng.randrange(len(theirs) - e.gave) if len(theirs) > e.gave else 0
                self.hands[e.seat].append(theirs.pop(pick))
        elif name == "HandDealt":
            self.deal()

    def attempt(self, action: dict[str, Any]) -> bool:
        try:
            self.act(action)
        except IllegalAction:
            return False
        return True

    # --- a simple player ---------------------------------------------------------------

    def options_for(self, seat: int, card: str) -> list[dict[str, Any]]:
        """Complete plays of ``card`` worth trying, in random order."""
        base: dict[str, Any] = {"do": "play", "seat": seat, "card": card}
        n, s = self.state.n, self.state.seats
        out: list[dict[str, Any]] = []
        kind = KIND[card]
        if kind in ("hassle", "solution", "magnum"):
            for t in range(n):
                extra: dict[str, Any] = {"target": t}
                if card == "bribe":
                    biz = [c for c in self.hands[seat] if KIND[c].endswith("_business")]
                    if not biz:
                        continue
                    extra["discard"] = self.rng.choice(biz)
                out.append({**base, **extra})
            if card == "magnum" and self.state.last_takeover is not None:
                out.append({**base, "cancel": True})
        elif kind == "takeover":
            out += [{**base, "target": t, "take": b} for t in range(n) for b in s[t].businesses]
            out.append(base)
        elif card == "family_party":
            out += [{**base, "lose": b} for b in s[seat].businesses] or [base]
        else:
            out.append(base)
        self.rng.shuffle(out)
        return out

    def turn(self) -> None:
        st, seat = self.state, self.state.turn
        if st.phase == CHOOSE and st.awaiting is not None:
            if self.rng.random() < 0.3:  # a Magnum may come between; the choice still waits
                self.maybe_magnum()
            awaiting = self.state.awaiting
            if self.state.phase == CHOOSE and awaiting is not None:
                self.act({"do": "lose", "seat": seat, "card": self.rng.choice(awaiting.choices)})
            return
        if self.maybe_magnum():
            return
        if st.phase != MORE and self.rng.random() < 0.08:
            self.maybe_trade(seat)
        if st.phase == MORE:
            self.more(seat)
            return
        hand = sorted(
            set(self.hands[seat]), key=lambda c: (KIND[c] == "day_of_accounting", -VALUE[c], c)
        )
        if st.draw_pile > 30:  # keep the hands long enough to be interesting
            hand = [c for c in hand if c != "day_of_accounting"]
        if self.rng.random() < 0.85:
            for card in hand:
                if play_reason(st, seat, card) is None and KIND[card] != "paranoia":
                    if any(self.attempt(a) for a in self.options_for(seat, card)):
                        return
        self.discard_or_paranoia(seat)

    def maybe_trade(self, seat: int) -> None:
        other = self.rng.choice([i for i in range(self.state.n) if i != seat])
        give = self.rng.randint(1, 2)
        self.attempt(
            {
                "do": "trade",
                "seat": seat,
                "with": other,
                "give": give,
                "get": self.rng.randint(0, 2),
            }
        )

    def more(self, seat: int) -> None:
        extra = [c for c in self.hands[seat] if KIND[c].endswith("_business")]
        extra = [c for c in extra if play_reason(self.state, seat, c) is None]
        if extra:
            self.act({"do": "play", "seat": seat, "card": extra[0]})
        elif "single" in self.state.turn_done or self.rng.random() < 0.5:
            self.act({"do": "end_turn", "seat": seat})
        else:
            self.state_next_seat_acts()

    def state_next_seat_acts(self) -> None:
        """Leave the open turn (or the loss) to be settled by the next seat's own action."""
        nxt = (self.state.turn + 1) % self.state.n
        singles = [c for c in self.hands[nxt] if KIND[c] != "paranoia"]
        if (
            not self.state.seats[nxt].skips
            and singles
            and self.attempt({"do": "discard", "seat": nxt, "cards": [singles[0]]})
        ):
            return
        if self.state.phase == MORE:
            self.act({"do": "end_turn", "seat": self.state.turn})
        else:
            awaiting = self.state.awaiting or _fail()
            self.act({"do": "lose", "seat": awaiting.seat, "card": awaiting.choices[0]})

    def maybe_magnum(self) -> bool:
        holders = [i for i, h in enumerate(self.hands) if "magnum" in h]
        if not holders or self.rng.random() < 0.7:
            return False
        seat = holders[0]
        if self.rng.random() < 0.5 and self.attempt({"do": "magnum_shown"}):
            if any(self.attempt(a) for a in self.options_for(seat, "magnum")):
                return True
            self.act({"do": "cancel"})
            return False
        return any(self.attempt(a) for a in self.options_for(seat, "magnum"))

    def discard_or_paranoia(self, seat: int) -> None:
        hand = self.hands[seat]
        triples = sorted(c for c in set(hand) if hand.count(c) >= 3)
        camera = self.rng.random() < 0.5  # cards laid in the discard zone one by one
        if triples and camera:
            first = self.attempt({"do": "discard_card", "seat": seat, "card": triples[0]})
            if first:
                for _ in range(2):
                    self.act({"do": "discard_card", "seat": seat, "card": triples[0]})
                return
        if triples and self.attempt({"do": "discard", "seat": seat, "cards": [triples[0]] * 3}):
            return
        singles = [c for c in hand if KIND[c] != "paranoia"]
        if singles:
            single = min(singles, key=VALUE.get)
            if camera:
                self.act({"do": "discard_card", "seat": seat, "card": single})
                if self.state.gathered:  # booked by the next action: here the turn's end
                    self.act({"do": "end_turn", "seat": seat})
                return
            self.act({"do": "discard", "seat": seat, "cards": [single]})
            return
        if not hand:  # the paranoia pass took the last card: the turn passes
            self.act({"do": "end_turn", "seat": seat})
            return
        card = hand[0]
        assert any(self.attempt(a) for a in self.options_for(seat, card))

    def play_hand(self, limit: int = 2000) -> None:
        for _ in range(limit):
            if self.state.phase == OVER:
                break
            self.turn()
        assert self.state.phase == OVER
        for i, hand in enumerate(self.hands):
            self.act({"do": "reveal", "seat": i, "hand": list(hand)})
        result = engine.outcome(self.state)
        assert result is not None
        expected = [
            by_hand(s.businesses, h) for s, h in zip(self.state.seats, self.hands, strict=True)
        ]
        assert result.detail["scores"] == expected


def _fail() -> Any:
    raise AssertionError("nothing awaited")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.integers(2, 6))
def test_random_hands_keep_engine_and_table_in_step(seed: int, seats: int) -> None:
    table = Table(seats, seed, {})
    table.play_hand()
    assert engine.outcome(table.state) is not None


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_matches_end_at_the_target(seed: int) -> None:
    table = Table(3, seed, {"match_to": 150000})
    for _ in range(40):
        table.play_hand()
        if table.state.match_over:
            break
        table.act({"do": "deal"})
    assert table.state.match_over
    assert max(table.state.totals) >= 150000
    assert list(table.state.totals) == [sum(h[i] for h in table.state.history) for i in range(3)]


@pytest.mark.parametrize(
    "options",
    [
        {"draw": "refill"},
        {"hassle_leaves": "at_once"},
        {"magnum_restores_hassle": True},
        {"legal_extra": "any"},
    ],
)
def test_options_play_through(options: dict[str, Any]) -> None:
    for seed in range(8):
        Table(4, seed, options).play_hand()


# --- writing the recorded games --------------------------------------------------------


def write_record(path: Path, table: Table, seed: int) -> None:
    header = {
        "record": "table-companion",
        "version": VERSION,
        "game": "illegal",
        "seats": list(table.setup.seats),
        "options": dict(table.setup.options),
        "seed": seed,
    }
    lines = [json.dumps(header)]
    lines += [json.dumps({"t": round(4.0 * (i + 1), 1), **a}) for i, a in enumerate(table.actions)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    state = engine.state_json(table.state)
    result = engine.outcome(table.state)
    assert result is not None
    out = result.to_json()
    expected = {
        "state": {
            "draw_pile": state["draw_pile"],
            "seats": state["seats"],  # lists match whole: every key of every seat
        },
        "outcome": {k: out[k] for k in ("winner", "scores", "match")},
    }
    path.with_suffix(".expected.json").write_text(
        json.dumps(expected, indent=2) + "\n", encoding="utf-8"
    )


def main() -> None:
    RECORDS.mkdir(parents=True, exist_ok=True)
    hand = Table(4, 8, {})
    hand.play_hand()
    write_record(RECORDS / "full_hand.jsonl", hand, 8)
    match = Table(3, 14, {"match_to": 500000})
    for i in range(3):
        match.play_hand()
        if match.state.match_over or i == 2:
            break
        match.act({"do": "deal"})
    print("match over:", match.state.match_over, match.state.totals, match.state.hand_no)
    write_record(RECORDS / "three_hand_match.jsonl", match, 14)


if __name__ == "__main__":
    sys.exit(main())
