"""The table set's machinery on a few cards (its figures are for `companion bench vision`)."""

from __future__ import annotations

from bench.vision_hardset import SPLITS as HARD_SPLITS
from bench.vision_table import SPLITS, fold_events, run_table_videos, table_script
from companion.decks import demo_deck, encode_payload, resolve_tag
from companion.inputs import PileSight, TagLeft, TagSeen
from vision.decoding import default_decoder


def _payloads(n: int = 30) -> list[str]:
    deck = demo_deck("nasty7")
    return [encode_payload(deck, s) for s in range(1, n + 1)]


def test_the_table_set_has_seeds_of_its_own_and_the_tables_pace() -> None:
    assert not set(SPLITS.values()) & set(HARD_SPLITS.values())
    plays, hands = table_script("table-held", 0, _payloads(), cards=21)
    landings = [p.at for p in plays]
    gaps = [b - a for a, b in zip(landings, landings[1:], strict=False)]
    assert all(0.6 <= g <= 2.9 for g in gaps), gaps  # a card every 0.6-2 s (+ a hand's rest)
    assert hands and all(1.1 <= h.until - h.at <= 1.8 for h in hands)
    assert table_script("table-tune", 0, _payloads(), cards=21)[0] != plays


def _event(kind: type, serial: int, at: float, zone: str | None = "pile") -> TagSeen | TagLeft:
    payload = encode_payload(demo_deck("nasty7"), serial)
    info = resolve_tag(payload)
    return kind(payload, at=at, zone=zone, status="ok", game="nasty7", card=info.card,
                serial=serial)


def test_a_hand_resting_and_a_card_beside_the_pile_through_the_engine() -> None:
    events = [_event(TagSeen, 1, 0.0), _event(TagLeft, 1, 1.0),
              _event(TagSeen, 1, 2.2),  # the hand lifted: the same card, unmoved
              _event(TagSeen, 2, 2.5, None)]  # beside the pile: put to the host
    folded = fold_events(events)
    assert (folded.refusals, folded.silent_drops, folded.host_notes, folded.penalties) == \
        (0, 0, 1, 0)
    late = fold_events([_event(TagSeen, 1, 0.0), _event(TagSeen, 2, 3.5)])
    assert late.penalties == 1  # a real hesitation is still one
    # while the camera says glare hides part of the pile, the clock penalises nobody
    blind = fold_events([_event(TagSeen, 1, 0.0), PileSight(0.5, True), _event(TagSeen, 2, 3.5)])
    assert (blind.penalties, blind.refusals) == (0, 0)


def test_a_video_through_the_pipeline_and_the_engine() -> None:
    r = run_table_videos("table-tune", 1, {"zxing": default_decoder("zxing")}, 640, 360,
                         cards=3)["zxing"]
    assert r["cards"] == 3 and r["exactly_one"] <= r["eligible"] <= 3
    assert r["frames"] > 0 and r["p95_ms"] is not None


def test_worker_processes_give_the_same_cards_as_one_process() -> None:
    """``jobs`` > 1 (the full-scale run): each video in a worker pinned to one core, the
    same per-card figures as the videos run here, both decoders on the same frames."""
    here = run_table_videos("table-held", 2, ("shipped", "zxing"), 640, 360, cards=2)
    apart = run_table_videos("table-held", 2, ("shipped", "zxing"), 640, 360, cards=2, jobs=2)
    for name in ("shipped", "zxing"):
        counts = {k: v for k, v in here[name].items() if not k.endswith("_ms")}
        assert counts == {k: v for k, v in apart[name].items() if not k.endswith("_ms")}
        assert counts["cards"] == 4 and counts["frames"] > 0
