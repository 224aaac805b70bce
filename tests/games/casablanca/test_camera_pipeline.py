"""The camera path: rendered frames of the board -> QR decoding -> zones -> the engine.

The synthetic camera renders the board's spaces as zones and the tagged stands (and
the suitcase) moving between them: a stand moving is one ``CardPlay`` removed in one
space and a new one with the same tag landing in the next. Frames are decoded in
lockstep (none dropped, on any machine); the tag events are handed to the engine in
capture-time order, with its deadlines delivered at their exact times.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import TrackingConfig, ZonesConfig
from companion.decks import resolve_tag
from companion.demo import demo_payloads
from companion.games.base import Setup, TagInput
from companion.games.casablanca import State, engine
from companion.inputs import TagLeft, TagSeen
from tests.games.casablanca.helpers import board_zones, stand
from tests.vision.conftest import FakeClock


def feed(events: list[TagSeen | TagLeft], state: State) -> State:
    """The tag events, in capture order, through ``action_for_input`` and ``decide``."""
    for e in sorted(events, key=lambda e: e.at):
        state = engine.deliver_deadlines(state, e.at, lambda _t, _e: None)
        inp = TagInput(isinstance(e, TagSeen), e.card, e.serial, e.zone, e.at)
        action = engine.action_for_input(state, inp)
        if action is not None:
            state, _ = engine.run(state, action, e.at)
    return engine.deliver_deadlines(state, 1e9, lambda _t, _e: None)


@pytest.mark.slow
def test_stands_and_the_suitcase_followed_from_rendered_frames(state_dir: Path) -> None:
    from vision.decoding import default_decoder
    from vision.pipeline import VisionPipeline
    from vision.synthetic import SyntheticTable

    payloads = demo_payloads("casablanca")
    red, case = payloads["red"][0], payloads["suitcase"][0]
    script = [
        stand(case, 0.2, "Basar", -0.045, removed_at=6.0),
        stand(red, 0.2, "Airport", 0.045, removed_at=1.0),
        stand(red, 1.5, "Gate", 0.045, removed_at=3.5),
        stand(red, 4.0, "Basar", 0.045, removed_at=6.0),
        # a hand carries Red and the suitcase over the Market for a moment ...
        stand(red, 6.3, "Market", 0.045, removed_at=6.4, slide_s=0.1),
        # ... and puts them down on the Gate: Red takes the suitcase along
        stand(red, 7.0, "Gate", 0.045),
        stand(case, 7.2, "Gate", -0.045),
    ]
    zones = board_zones()
    camera = SyntheticTable(list({red, case}), script, fps=10, seed=3, realtime=False,
                            clock=FakeClock(0.0), zones=zones)
    events: list[TagSeen | TagLeft] = []
    pipeline = VisionPipeline(camera, default_decoder(), TrackingConfig(),
                              ZonesConfig(polygons=zones), events.append, lockstep=True,
                              resolve=resolve_tag)
    pipeline.start()
    assert pipeline.wait_ended(timeout=300)  # a safety net, not a speed limit
    pipeline.stop()
    seen = [(e.card, e.zone) for e in sorted(events, key=lambda e: e.at)
            if isinstance(e, TagSeen)]
    assert ("red", "Gate") in seen and ("suitcase", "Basar") in seen, seen
    state = engine.new_game(Setup(seats=("Ann", "Ben"),
                                  options={"settle_s": 1.0, "protest_s": 0.5}))
    state = feed(events, state)
    assert state.agent("red").space == "gate"
    assert state.suitcase_agent == "red"  # the suitcase settled with Red on the Gate
    assert not any("Market" in line for line in state.log)  # the passing hand: nothing
    assert [line for line in state.log if line.startswith("Agent Red moved to")] == [
        "Agent Red moved to Gate.", "Agent Red moved to Basar.", "Agent Red moved to Gate."
    ]
