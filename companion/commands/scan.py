"""``companion scan FILE... [--json]``: the tags found in photos (jpg, png, webp) and videos.

With ``--json`` one JSON object per input file, one per line::

    {"file": "a.jpg", "tags": [{"payload": "...", "status": "ok", "game": "<game>",
      "card": "<card id>", "serial": 12, "corners": [[x, y], ...]}]}

``status`` comes from the deck registry (``companion.decks.resolve_tag``): ok, unknown,
forged; a code that was located but could not be read is ``damaged`` (payload "") and
carries its real outline (a located code without one is not reported). A text the deck
registry refuses right on top of a card it accepts is a phantom and not reported.
When calibration codes are read (the calibration card), the record also says which
``--size`` to print: ``"calibration": {"px_per_mm", "size_mm", "advice"}``.
A file that cannot be read (or whose header claims more than ``MAX_PIXELS``, checked
before decoding) gets an ``"error"`` key and the exit status is 1.

``--events`` runs each video through the table's own camera path (``vision.replay``: the
shipped decoder, the tracker and the zones of the configuration, every frame in turn)
and lists what the table would get, in order::

    {"file": "game.mp4", "events": [{"event": "seen", "t": 1.233, "zone": "pile",
      "status": "ok", "game": "<game>", "card": "<card id>", "serial": 12,
      "payload": "..."}, {"event": "left", ...}]}

``t`` is the video time in seconds of the first frame of the run that confirmed the tag
(``seen``) or of the last frame it was read in (``left``); ``zone`` is null outside
every zone.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.decks import CALIBRATION_CARD
from vision.calibration import advise
from vision.frames import Decoder, Detection, Image
from vision.quads import drop_phantoms, is_real
from vision.sources import IMAGE_SUFFIXES, iter_video, read_image

#: a video is decoded every this many frames (tags stay in view far longer)
VIDEO_STEP = 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="photos or videos")
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    parser.add_argument("--events", action="store_true",
                        help="videos: the TagSeen/TagLeft events the table would get, with "
                             "frame time, zone and serial")
    parser.add_argument("--config", type=Path,
                        help="configuration file (TOML) for --events: tracking and zones")
    parser.add_argument("--decoder", default="auto",
                        choices=["auto", "zxing", "pyzbar", "opencv"],
                        help="decoder backend (default: the shipped pipeline)")


def _resolver() -> Callable[[str], Any] | None:
    try:
        from companion.decks import resolve_tag
    except ImportError:
        return None
    return resolve_tag


def tag_record(d: Detection, resolve: Callable[[str], Any] | None) -> dict[str, Any]:
    """One entry of ``tags``: the payload exactly, what the registry says, the corners."""
    corners = [[round(x, 1), round(y, 1)] for x, y in d.corners]
    if d.damaged:
        return {"payload": d.text, "status": "damaged", "game": None, "card": None,
                "serial": None, "corners": corners}
    info = resolve(d.text) if resolve is not None else None
    status = str(getattr(info, "status", "unknown"))
    if status not in ("ok", "unknown", "forged", "damaged"):
        status = "unknown"  # "malformed": not one of our tags at all
    ok = status == "ok"
    return {
        "payload": d.text,
        "status": status,
        "game": getattr(info, "game", None) if status in ("ok", "forged") else None,
        "card": getattr(info, "card", None) if ok else None,
        "serial": getattr(info, "serial", None) if ok else None,
        "corners": corners,
    }


def _decoded(decoder: Decoder, image: Image, is_ok: Callable[[str], bool] | None
             ) -> list[Detection]:
    found = [d for d in decoder.decode(image) if not d.damaged or is_real(d.corners)]
    return found if is_ok is None else drop_phantoms(found, is_ok)


def scan_file(path: Path, decoder: Decoder, is_ok: Callable[[str], bool] | None = None
              ) -> list[Detection]:
    """Every distinct tag in a photo, or in a video (first sighting of each payload).

    ``is_ok(text)``: the deck check; reads failing it over an ok read are dropped.
    """
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return _decoded(decoder, read_image(path), is_ok)
    found: dict[str, Detection] = {}
    damaged: list[Detection] = []
    for i, image in enumerate(iter_video(path)):
        if i % VIDEO_STEP:
            continue
        for d in _decoded(decoder, image, is_ok):
            if d.damaged:
                damaged.append(d)
            else:
                found.setdefault(d.text, d)
    # a code unreadable in every frame it was located in is reported once per video
    return list(found.values()) + damaged[:1] * (not found)


def _make_decoder(name: str) -> Decoder:
    from vision.decoding import DecoderUnavailableError, default_decoder

    if name == "auto":
        from vision.retry import RetryDecoder

        try:
            return RetryDecoder(report_damaged=True)
        except DecoderUnavailableError:
            pass  # default_decoder falls back and logs why
    return default_decoder(name)


def run(args: argparse.Namespace) -> int:
    resolve = _resolver()
    if args.events:  # the table's own decoder, as the table would see the video
        from vision.decoding import default_decoder

        return _run_events(args, default_decoder(args.decoder), resolve)
    decoder = _make_decoder(args.decoder)
    is_ok = None if resolve is None else (
        lambda text: str(getattr(resolve(text), "status", "")) == "ok")
    status = 0
    for name in args.files:
        path = Path(name)
        record: dict[str, Any] = {"file": name, "tags": []}
        try:
            if not path.is_file():
                raise ValueError(f"{name} does not exist or is not a file: check the path")
            found = scan_file(path, decoder, is_ok)
            record["tags"] = [tag_record(d, resolve) for d in found]
            advice = advise([d.corners for d, t in zip(found, record["tags"], strict=True)
                             if t["card"] == CALIBRATION_CARD])
            if advice is not None:
                record["calibration"] = {"px_per_mm": advice.px_per_mm,
                                         "size_mm": advice.size_mm, "advice": advice.sentence()}
        except ValueError as exc:
            record["error"] = str(exc)
            status = 1
        _print(record, args.json)
    return status


def _run_events(args: argparse.Namespace, decoder: Decoder,
                resolve: Callable[[str], Any] | None) -> int:
    from companion.config import ConfigError, load_config
    from companion.paths import default_config_path
    from vision.replay import event_record, video_events

    try:
        config = load_config(args.config or default_config_path())
    except ConfigError as exc:
        print(f"companion scan: {exc}", file=sys.stderr)
        return 2
    status = 0
    for name in args.files:
        path = Path(name)
        record: dict[str, Any] = {"file": name, "events": []}
        try:
            if not path.is_file():
                raise ValueError(f"{name} does not exist or is not a file: check the path")
            if path.suffix.lower() in IMAGE_SUFFIXES:
                raise ValueError(f"{name} is a photo: --events needs a video")
            events = video_events(path, config, decoder, resolve)
            record["events"] = [event_record(e) for e in events]
        except ValueError as exc:
            record["error"] = str(exc)
            status = 1
        _print_events(record, args.json)
    return status


def _print_events(record: dict[str, Any], as_json: bool) -> None:
    if as_json or "error" in record:
        _print(record, as_json)
        return
    print(f"{record['file']}: {len(record['events'])} event(s)")
    for e in record["events"]:
        what = f"{e['card']} #{e['serial']}" if e["status"] == "ok" else e["status"]
        where = f"in {e['zone']}" if e["zone"] else "outside every zone"
        print(f"  {e['t']:8.3f} s  {e['event']:<4}  {what} {where}")


def _print(record: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(record, ensure_ascii=False), flush=True)
        return
    if "error" in record:
        print(f"{record['file']}: error: {record['error']}", file=sys.stderr)
        return
    tags = record["tags"]
    print(f"{record['file']}: {len(tags)} tag(s)")
    for t in tags:
        what = f"{t['game']}/{t['card']} #{t['serial']}" if t["status"] == "ok" else t["status"]
        print(f"  {t['payload']!r}: {what}")
    if "calibration" in record:
        print(f"  calibration card: {record['calibration']['advice']}")
