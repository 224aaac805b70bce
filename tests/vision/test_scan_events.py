"""``companion scan VIDEO --events --json``: the table's events from a generated video.

The video is rendered by the synthetic table with a known script (cards landing on the
pile and one beside it, a hand resting on the pile longer than the default leave time,
a lamp's glare spot), so every expected event is known: exactly one ``seen`` per card
with its serial, zone and a time at its landing, and no ``left`` for the card under the
resting hand. Frames are decoded in turn at their video times: nothing depends on speed.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.decks import demo_deck, encode_payload
from vision.synthetic import CardPlay, Patch, SyntheticTable

FPS = 10
PILE = [(0.2, 0.2), (0.8, 0.2), (0.8, 0.8), (0.2, 0.8)]
SERIALS = (3, 17, 40, 52)


def _video(path: Path) -> dict[int, CardPlay]:
    deck = demo_deck("nasty7")
    payloads = [encode_payload(deck, s) for s in SERIALS]
    plays = {
        3: CardPlay(payloads[0], at=0.6, zone="pile", tag_px=110, angle=10.0),
        17: CardPlay(payloads[1], at=1.4, position=(0.62, 0.4), tag_px=100, angle=-20.0),
        40: CardPlay(payloads[2], at=4.0, position=(0.45, 0.55), tag_px=110, angle=5.0),
        52: CardPlay(payloads[3], at=4.6, position=(0.88, 0.5), tag_px=110, angle=0.0),
    }
    hand = Patch("hand", 2.0, 3.6, (0.62, 0.4), 0.07)  # over #17 for 1.6 s
    glare = Patch("glare", 0.0, 9.0, (0.3, 0.75), 0.05)
    feed = SyntheticTable([], list(plays.values()), width=960, height=540, fps=FPS, seed=11,
                          zones={"pile": PILE}, realtime=False, patches=[hand, glare])
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (960, 540))
    for i in range(int(6.0 * FPS)):
        writer.write(feed.render(i).image)
    writer.release()
    return plays


def test_scan_events_lists_what_the_table_would_get(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[zones.polygons]\npile = " + json.dumps([list(p) for p in PILE]) + "\n")
    video = tmp_path / "table.avi"
    plays = _video(video)
    assert main(["scan", "--events", "--json", "--config", str(config), str(video)]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["file"] == str(video)
    events = record["events"]
    seen = [e for e in events if e["event"] == "seen"]
    assert sorted(e["serial"] for e in seen) == sorted(SERIALS)  # exactly one per card
    for e in seen:
        play = plays[e["serial"]]
        assert play.at - play.slide_s <= e["t"] <= play.at + 0.5, e  # from the landing
        assert (e["status"], e["game"]) == ("ok", "nasty7")
        assert e["zone"] == (None if e["serial"] == 52 else "pile"), e  # #52: beside it
    assert [e for e in events if e["event"] == "left"] == []  # the hand hid #17: it stayed
    assert [e["t"] for e in events] == sorted(e["t"] for e in events)


def test_scan_events_says_a_photo_is_not_a_video(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "a.png"
    cv2.imwrite(str(photo), SyntheticTable(["x"], width=320, height=180, realtime=False)
                .render(0).image)
    assert main(["scan", "--events", "--json", str(photo)]) == 1
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["error"] == f"{photo} is a photo: --events needs a video"
