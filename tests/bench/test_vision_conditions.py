"""The conditions' videos and the table counting (their figures are for `companion bench vision`)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bench.vision_conditions import (
    CONDITIONS,
    SMOKE,
    condition_video,
    empty,
    merge,
    played_at,
)
from bench.vision_tablecount import TableRun, count_table
from companion.decks import demo_deck, encode_payload, resolve_tag
from companion.games.nasty7.events import (
    CardLandedUnread,
    CardPlayed,
    CardSeenBeside,
    LandingNamed,
    MissedCardAdded,
    PileSightChanged,
    PileTaken,
    SeenCardSettled,
)
from companion.inputs import CardLanded, TagSeen
from vision.landmemory import HOLD_S


def test_a_clean_game_counts_every_card_right() -> None:
    events = [CardPlayed(0, "gun", 1.0, serial=1), CardPlayed(1, "gun", 1.5, serial=2),
              CardSeenBeside(2, "gun", 2.0, serial=3), SeenCardSettled(True, 3.5),
              MissedCardAdded(2, "gun", 2.0, 3.5, serial=3),
              PileTaken((0,), (3,), 0, "hesitation", 0, at=6.6)]  # nobody played: true
    c = count_table(events, {1: 1, 2: 1, 3: 1, 9: 0}, [1.0, 1.5, 2.0], 3.0)
    assert (c.cards, c.right, c.booked_twice, c.questions, c.unanswered) == (4, 4, 0, 1, 0)
    assert (c.penalties, c.false_penalties) == (1, 0)


def test_a_double_booking_a_dropped_question_and_a_false_penalty_are_counted() -> None:
    events = [CardPlayed(0, "gun", 1.0, serial=1), CardPlayed(1, "gun", 1.5, serial=2),
              CardSeenBeside(2, "gun", 2.0, serial=3),
              CardPlayed(2, "gun", 2.4, serial=4),  # the question vanished, never answered
              PileTaken((2,), (4,), 2, "hesitation", 2, at=4.5),  # a card landed at 2.4
              CardPlayed(2, "gun", 5.0, serial=1)]  # the first card, played again
    c = count_table(events, {1: 1, 2: 1, 3: 1, 4: 1}, [1.0, 1.5, 2.0, 2.4], 3.0)
    assert c.booked_twice == 1
    assert (c.questions, c.unanswered) == (1, 1)
    assert (c.penalties, c.false_penalties) == (1, 1)
    assert c.right == 2  # card 1 twice, card 3 never
    # a card in a seat's zone is right only without a pile event
    assert count_table([CardPlayed(0, "gun", 1.0, serial=7)], {7: 0}, [1.0]).right == 0


def test_the_clock_off_for_glare_and_the_true_hesitations_then_are_counted() -> None:
    events = [CardPlayed(0, "gun", 1.0, serial=1), PileSightChanged(True, 2.0),
              CardPlayed(1, "gun", 6.0, serial=2),  # 5 s after the one before: a hesitation
              PileSightChanged(False, 7.0), CardPlayed(2, "gun", 7.5, serial=3),
              PileSightChanged(True, 8.0), CardPlayed(0, "gun", 12.0, serial=4)]
    c = count_table(events, {1: 1, 2: 1, 3: 1, 4: 1}, [1.0, 6.0, 7.5, 12.0], 3.0)
    assert c.blind_s == 5.0 + 7.0  # 2-7, then 8 until the last landing's deadline (15)
    assert (c.hesitations_off, c.penalties) == (2, 0)  # both left to the host


@dataclass(frozen=True)
class SeenCardSettled2:
    """An answer that names its card (a game whose questions queue up may say which)."""

    counted: bool
    at: float
    serial: int | None = None


SeenCardSettled2.__name__ = "SeenCardSettled"


def test_answers_that_name_their_card_close_that_question() -> None:
    events = [CardSeenBeside(0, "gun", 1.0, serial=3), CardSeenBeside(0, "gun", 1.2, serial=4),
              SeenCardSettled2(True, 2.5, serial=4)]
    c = count_table(events, {3: 1, 4: 1}, [1.0, 1.2])
    assert (c.questions, c.unanswered) == (2, 1)
    both = count_table([*events, SeenCardSettled(True, 3.0)], {}, [])
    assert both.unanswered == 0


def test_a_question_answered_by_the_play_of_its_card_is_not_dropped() -> None:
    """A card seen beside the pile that then slides onto it is played: that play answers
    its question (the game drops it from the waiting ones), as a later one of another
    card does not (cond-tune beside video 9: the host's answer came after the play and
    was refused, and the question was counted as dropped)."""
    events = [CardSeenBeside(0, "gun", 1.0, serial=3), CardPlayed(0, "gun", 1.6, serial=3)]
    assert count_table(events, {3: 1}, [1.6]).unanswered == 0
    other = [CardSeenBeside(0, "gun", 1.0, serial=3), CardPlayed(1, "knife", 1.6, serial=5)]
    assert count_table(other, {3: 1, 5: 1}, [1.6]).unanswered == 1


def test_unread_landings_are_counted_asked_named_and_left_unanswered() -> None:
    events = [CardPlayed(0, "gun", 1.0, serial=1), CardLandedUnread(1, 1.5),
              CardLandedUnread(1, 1.9), LandingNamed("gun", 3.0, 0),
              MissedCardAdded(1, "gun", 1.5, 3.0, camera=True),
              CardLandedUnread(2, 4.0), LandingNamed("phone", 5.0, 0),
              MissedCardAdded(2, "phone", 4.0, 5.0, camera=True)]
    c = count_table(events, {1: 1}, [1.0, 1.5, 1.9, 4.0])
    assert (c.landed_unread, c.unread_booked, c.unanswered) == (3, 2, 1)
    assert (c.right, c.booked_twice) == (1, 0)  # two cards named by hand: no serial, not twice


def test_an_unread_landing_the_camera_answered_is_not_counted_as_named_by_the_host() -> None:
    events = [CardPlayed(0, "gun", 1.0, serial=1), CardLandedUnread(1, 1.5),
              LandingNamed("phone", 3.0, 0),
              MissedCardAdded(1, "phone", 1.5, 3.0, serial=2, camera=True, read=True)]
    c = count_table(events, {1: 1, 2: 1}, [1.0, 1.5])
    assert (c.landed_unread, c.unread_booked, c.read_answered, c.unanswered) == (1, 0, 1, 0)
    assert (c.right, c.booked_twice) == (2, 0)


def test_the_table_run_names_the_card_that_landed_unread_or_says_none_did() -> None:
    run = TableRun()
    run.connect(_Pipeline())
    run.truth = lambda at: "gun" if at < 1.0 else None  # the host saw a gun land at 0.5
    frames = {0: [_seen(1, 0.0)], 25: [CardLanded(0.5, "pile")],
              60: [CardLanded(1.9, "pile")]}  # nothing landed then: invented
    for i in range(int(6.0 * 30)):
        run.now = i / 30
        run.frame(frames.get(i, []))
    run.finish(1 / 30)
    c = count_table(run.events(), {1: 1}, [0.0, 0.5], run.hesitation_s)
    assert (c.landed_unread, c.unread_booked, c.unanswered) == (2, 1, 0)
    assert run.invented == 1 and run.refused == 0
    assert c.false_penalties == 0


def _seen(serial: int, at: float, zone: str | None = "pile") -> TagSeen:
    payload = encode_payload(demo_deck("nasty7"), serial)
    info = resolve_tag(payload)
    return TagSeen(payload, at=at, zone=zone, status="ok", game="nasty7", card=info.card,
                   serial=serial)


class _Pipeline:
    delay_s = 1.0

    def __init__(self) -> None:
        self.counted = 0

    def count_beside(self) -> None:
        self.counted += 1


def test_the_table_run_asks_the_host_ticks_every_frame_and_grows_the_zone() -> None:
    run = TableRun()
    pipeline = _Pipeline()
    run.connect(pipeline)
    frames = {0: [_seen(1, 0.0)], 15: [_seen(2, 0.5, None)]}  # a card beside the pile
    for i in range(int(8.0 * 30)):
        run.now = i / 30
        run.frame(frames.get(i, []))
    run.finish(1 / 30)
    c = count_table(run.events(), {1: 1, 2: 1}, [0.0, 0.5], run.hesitation_s)
    assert (c.questions, c.unanswered, c.right, c.booked_twice) == (1, 0, 2, 0)
    assert pipeline.counted == 1  # the host counted it: the pile grows towards it
    # nobody played for 3 s after the host's answer: a real penalty, by the tick
    assert (c.penalties, c.false_penalties) == (1, 0)
    assert run.refused == 0


def test_the_new_conditions_rest_a_hand_and_put_fingers_on_tags() -> None:
    payloads = [encode_payload(demo_deck("nasty7"), s) for s in range(1, 40)]
    assert CONDITIONS[:5] == ("fast", "glare", "bump", "beside", "beside-no-seats")
    feed, _ = condition_video("cond-tune", "hands", 0, payloads, 12)
    rests = [p.until - p.at for p in feed.patches]
    assert rests and all(2.0 <= r <= 4.0 for r in rests)
    feed, _ = condition_video("cond-tune", "fingers", 0, payloads, 12)
    assert len(feed.patches) == 12
    assert all(p.at < play.at < p.until for p, play in zip(feed.patches, feed.script,
                                                           strict=True))


def test_the_conditions_report_runs_through_and_prints_each_row(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """One condition, one card: the run, the per-split cost and the report's lines."""
    import bench.vision_conditions as conditions
    from bench.vision_condreport import print_conditions

    monkeypatch.setattr(conditions, "CONDITIONS", ("fast",))
    report = conditions.run_conditions(2, 1, ("cond-tune",), size=conditions.SMOKE)
    split = report["cond-tune"]
    fast = split["conditions"]["fast"]
    assert fast["videos"] == 2 and fast["cards"] == 2  # two videos, summed
    assert fast["table"]["cards"] <= 2
    assert split["cost"]["frames"] > 0 and split["cost"]["p95_ratio"] is not None
    print_conditions(report)
    out = capsys.readouterr().out
    assert "pile events right" in out and "decoder cost" in out and "  fast " in out
    assert "readable cards:" in out and "exactly one pile event" in out
    assert fast["readable"]["readable"] <= 2 and fast["readable"]["missed"] == 0
    assert f"cards read (exactly one TagSeen) {fast['read']}/2" in out


def test_each_video_of_a_condition_has_its_own_seed_and_the_smoke_size_is_small() -> None:
    payloads = [encode_payload(demo_deck("nasty7"), s) for s in range(1, 40)]
    a, _ = condition_video("cond-held", "fast", 0, payloads, 12)
    b, _ = condition_video("cond-held", "fast", 1, payloads, 12)
    c, _ = condition_video("cond-tune", "fast", 0, payloads, 12)
    assert len({tuple(p.payload for p in f.script) for f in (a, b, c)}) == 3
    small, what = condition_video("cond-held", "bump", 0, payloads, 1, SMOKE)
    frame = small.render(0).image
    assert frame.shape[:2] == (360, 640) and small.fps == 15.0
    assert abs(what["bump"].shift[0]) < 60 and abs(what["bump"].shift[1]) < 60  # scaled


def test_the_last_card_is_filmed_longer_than_the_watch_holds_a_card() -> None:
    """The landing watch asks about a card something lies on ``HOLD_S`` after it
    settled: a video that ended before that could never have the last card asked about
    (cond-tune glare 68 #29, when videos ended 2 s after their last card)."""
    payloads = [encode_payload(demo_deck("nasty7"), s) for s in range(1, 40)]
    for condition in ("glare", "fingers"):
        feed, _ = condition_video("cond-tune", condition, 0, payloads, 12)
        last = max(p.at + p.slide_s for p in feed.script)
        assert feed.duration - last > HOLD_S + 1.0


def test_a_card_laid_in_a_seats_zone_is_no_play_and_stops_no_clock() -> None:
    """A penalty 3 s after the last play is right even when a card was laid in a seat's
    drawn zone meanwhile: that card is no play (the table books nothing there), so it is
    not among the landings a false penalty is judged by (cond-tune beside video 2)."""
    payloads = [encode_payload(demo_deck("nasty7"), s) for s in range(1, 40)]
    feed, what = condition_video("cond-tune", "beside", 2, payloads, 12)
    plays = played_at(feed, what["zones"])
    in_seat = [p.at for p in feed.script if p.at not in plays]
    assert in_seat and len(plays) + len(in_seat) == len(feed.script)
    last_play, laid = max(plays), max(in_seat)
    assert laid > last_play  # the video's last card lies in the seat's zone
    penalty = PileTaken((0,), (3,), 0, "hesitation", 0, at=last_play + 3.0 + 1 / 30)
    assert count_table([penalty], {}, plays).false_penalties == 0
    assert count_table([penalty], {}, [p.at for p in feed.script]).false_penalties == 1


def test_a_penalty_is_false_only_more_than_a_frame_inside_the_window() -> None:
    """The camera dates a landing to the frame it first saw it in: a penalty 3 s after
    that frame is right though it came a few ms short of 3 s after the true landing
    (cond-tune hands video 10: landed 7.51 s, dated 7.50, penalised at 10.50); one 0.5 s
    short is false."""
    right = PileTaken((0,), (3,), 0, "hesitation", 0, at=10.500001)
    early = PileTaken((0,), (3,), 0, "hesitation", 0, at=10.0)
    assert count_table([right], {}, [7.51], 3.0, 1 / 30).false_penalties == 0
    assert count_table([right], {}, [7.51], 3.0).false_penalties == 1  # to the microsecond
    assert count_table([early], {}, [7.51], 3.0, 1 / 30).false_penalties == 1


def test_figures_of_videos_add_up() -> None:
    one, two = empty(1), empty(1)
    one["read"], two["read"] = 3, 4
    one["follow_error_px"], two["follow_error_px"] = [1.0], [2.0]
    one["table"]["right"], two["table"]["right"] = 5, 6
    total = empty()
    merge(total, one)
    merge(total, two)
    assert (total["videos"], total["read"], total["table"]["right"]) == (2, 7, 11)
    assert total["follow_error_px"] == [1.0, 2.0]


def test_a_card_is_in_the_zone_that_holds_its_tag() -> None:
    """The video where the table was counted wrong (cond-tune, beside, video 2): a card
    whose centre lies just left of the seat's zone has its tag inside it, so the table
    rightly books it to nobody; the bench expected a play (it looked at the card's centre)."""
    from bench.vision_conditions import SEAT, _inside, tag_centre
    from companion.demo import demo_payloads

    payloads = sorted(p for kind in demo_payloads("nasty7").values() for p in kind)
    feed, _ = condition_video("cond-tune", "beside", 2, payloads, 12)
    play = next(p for p in feed.script if resolve_tag(p.payload).serial == 7)
    assert play.position is not None and not _inside(SEAT, play.position)
    centre = tag_centre(feed, play)
    assert centre is not None and _inside(SEAT, centre)


def test_worker_processes_give_the_same_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """``jobs`` > 1 (the default of ``COMPANION_BENCH_ONLY=conditions``: a worker a core):
    the same figures as in this process, video for video."""
    import bench.vision_conditions as conditions

    monkeypatch.setattr(conditions, "CONDITIONS", ("fast",))
    apart = conditions.run_conditions(2, 1, ("cond-held",), False, SMOKE, jobs=2)
    here = conditions.run_conditions(2, 1, ("cond-held",), False, SMOKE, jobs=1)
    assert apart["cond-held"]["conditions"] == here["cond-held"]["conditions"]
    assert here["cond-held"]["conditions"]["fast"]["videos"] == 2


def test_a_card_under_the_glare_is_put_to_the_host_and_a_resting_hand_never_is() -> None:
    """The tuning split's first glare and hands videos at the smoke size (every frame
    through the pipeline and a real table): cards the lamp's reflection hides are asked
    about ("which card?") and named, none invented; the resting hands invent none."""
    from bench.vision_conditions import one_video

    video = one_video("cond-tune", "glare", 0, 12, cost=False, size=SMOKE)
    glare = video["table"]
    assert glare["landed_unread"] >= 1 and glare["unread_booked"] >= 1
    assert (glare["invented"], glare["false_penalties"], glare["booked_twice"]) == (0, 0, 0)
    # every card a camera could have read is counted, read or not; a missed one says why
    readable = video["readable"]
    assert readable["readable"] == readable["once"] + readable["missed"]
    assert len(video["missed_cards"]) == readable["missed"]
    assert all(m["visible_frames"] >= 2 and m["seen_events"] == 0
               for m in video["missed_cards"])
    hands = one_video("cond-tune", "hands", 0, 12, cost=False, size=SMOKE)["table"]
    assert (hands["invented"], hands["booked_twice"]) == (0, 0)


def _calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int]]:
    """No video is run: each one ``run_conditions`` asks for is recorded, with no figures."""
    import bench.vision_conditions as conditions

    calls: list[tuple[str, str, int]] = []

    def one(split: str, condition: str, video: int, *_: object) -> dict[str, object]:
        calls.append((split, condition, video))
        return empty(1)

    monkeypatch.setattr(conditions, "CONDITIONS", ("fast", "glare"))
    monkeypatch.setattr(conditions, "one_video", one)
    return calls


def test_the_first_video_of_each_condition_can_be_chosen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """Videos 10-11 of each condition and split (0-9 have been run and looked at): those
    are the videos run, and the report's header says so."""
    import bench.vision_conditions as conditions
    from bench.vision_condreport import print_conditions

    calls = _calls(monkeypatch)
    report = conditions.run_conditions(2, 1, ("cond-held", "cond-tune"), cost=False,
                                       size=SMOKE, first=10)
    assert calls == [(s, c, v) for s in ("cond-held", "cond-tune") for c in ("fast", "glare")
                     for v in (10, 11)]
    assert (report["cond-held"]["first"], report["cond-held"]["videos"]) == (10, 2)
    assert report["cond-tune"]["conditions"]["glare"]["videos"] == 2
    print_conditions(report)
    out = capsys.readouterr().out
    assert "HELD-APART conditions (cond-held, videos 10-11 of each condition)" in out
    assert "tuning conditions (cond-tune, videos 10-11 of each condition)" in out
    calls.clear()
    assert conditions.run_conditions(1, 1, ("cond-tune",), False, SMOKE)["cond-tune"][
        "first"] == 0  # by default from the first
    assert calls == [("cond-tune", "fast", 0), ("cond-tune", "glare", 0)]
    print_conditions(conditions.run_conditions(1, 1, ("cond-tune",), False, SMOKE, first=12))
    assert "(cond-tune, video 12 of each condition)" in capsys.readouterr().out


@pytest.mark.parametrize(("first", "videos"), [("10", (10, 11)), (None, (0, 1)),
                                               ("-3", (0, 1)), ("ten", (0, 1))])
def test_the_bench_takes_the_first_video_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    first: str | None, videos: tuple[int, ...],
) -> None:
    """``COMPANION_BENCH_ONLY=conditions companion bench vision`` with
    ``COMPANION_BENCH_CONDITION_FIRST`` (default 0; a value that is no index: 0): the
    videos run and the header naming them."""
    from bench import vision as bench

    calls = _calls(monkeypatch)
    if first is None:
        monkeypatch.delenv("COMPANION_BENCH_CONDITION_FIRST", raising=False)
    else:
        monkeypatch.setenv("COMPANION_BENCH_CONDITION_FIRST", first)
    monkeypatch.setenv("COMPANION_BENCH_CONDITION_VIDEOS", "2")
    monkeypatch.setenv("COMPANION_BENCH_CONDITION_SPLITS", "cond-tune")
    monkeypatch.setenv("COMPANION_BENCH_JOBS", "1")  # in this process: no video is run
    monkeypatch.setattr(bench, "_pin_one_core", lambda: None)  # nor this process pinned
    assert bench.main_conditions(False, lambda _: None) == 0
    assert calls == [("cond-tune", c, v) for c in ("fast", "glare") for v in videos]
    header = capsys.readouterr().out.splitlines()[0]
    assert header.startswith("vision benchmark, the conditions of issue 36 (cond-tune "
                             f"videos {videos[0]}-{videos[-1]} of each condition), on ")
