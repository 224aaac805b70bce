from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.decks import demo_deck, encode_payload
from tests.vision.conftest import qr_image
from tests.vision.realphotos import DATA

KEYS = {"payload", "status", "game", "card", "serial", "corners"}


def scan_json(capsys: pytest.CaptureFixture[str], *files: str) -> tuple[int, list[dict]]:
    code = main(["scan", "--json", *files])
    lines = capsys.readouterr().out.splitlines()
    return code, [json.loads(line) for line in lines]


def test_a_card_of_our_deck_is_ok_with_its_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = demo_deck("nasty7")
    payload = encode_payload(deck, 5)
    path = tmp_path / "card.png"
    cv2.imwrite(str(path), qr_image(payload))
    code, records = scan_json(capsys, str(path))
    assert code == 0
    assert records[0]["file"] == str(path)
    (tag,) = records[0]["tags"]
    assert set(tag) == KEYS
    card = deck.card(5)
    assert card is not None
    assert (tag["payload"], tag["status"], tag["game"], tag["card"], tag["serial"]) == (
        payload, "ok", "nasty7", card.id, 5)
    assert len(tag["corners"]) == 4 and all(len(p) == 2 for p in tag["corners"])


def test_foreign_text_is_unknown_with_nulls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "url.jpg"
    cv2.imwrite(str(path), qr_image("https://example.com/x"))
    _, records = scan_json(capsys, str(path))
    (tag,) = records[0]["tags"]
    assert tag["payload"] == "https://example.com/x"
    assert (tag["status"], tag["game"], tag["card"], tag["serial"]) == ("unknown", None, None, None)


def test_one_line_per_file_and_a_missing_file_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((100, 100), 255, np.uint8))
    code, records = scan_json(capsys, str(blank), str(tmp_path / "missing.jpg"))
    assert code == 1
    assert records[0] == {"file": str(blank), "tags": []}
    assert records[1]["tags"] == [] and "check the path" in records[1]["error"]


def test_video_reports_each_tag_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "clip.avi"
    code_img = cv2.cvtColor(qr_image("VIDEO0001", size=240), cv2.COLOR_GRAY2BGR)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (240, 240))
    for _ in range(12):
        writer.write(code_img)
    writer.release()
    _, records = scan_json(capsys, str(path))
    assert [t["payload"] for t in records[0]["tags"]] == ["VIDEO0001"]


@pytest.mark.skipif(not DATA.is_dir(), reason="the shared real photos are not there")
def test_shared_photo(capsys: pytest.CaptureFixture[str]) -> None:
    folder = DATA / "zxing-cpp" / "qrcode-3"
    photo = sorted(folder.glob("*.webp"))[0]
    truth = photo.with_suffix(".txt").read_bytes().decode("utf-8")
    _, records = scan_json(capsys, str(photo))
    assert [t["payload"] for t in records[0]["tags"]] == [truth]


def test_human_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.png"
    cv2.imwrite(str(path), qr_image("HELLO42"))
    assert main(["scan", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 tag(s)" in out and "'HELLO42': unknown" in out


def png_header(width: int, height: int) -> bytes:
    """A tiny PNG file whose header claims ``width`` x ``height`` pixels."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b""))
            + chunk(b"IEND", b""))


@pytest.mark.parametrize("side", [100_000, 10_000])
def test_a_huge_image_header_is_a_clean_error_before_decoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], side: int
) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(png_header(side, side))
    code, records = scan_json(capsys, str(path))
    assert code == 1
    assert "too large" in records[0]["error"] and "scale it down" in records[0]["error"]
    assert main(["scan", str(path)]) == 1
    err = capsys.readouterr().err
    assert "too large" in err and "Traceback" not in err


def test_damaged_codes_carry_their_outline(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    img = cv2.cvtColor(qr_image("DAMAGED0001", module=8), cv2.COLOR_GRAY2BGR)
    h, w = img.shape[:2]
    img[h // 3 : 2 * h // 3, w // 4 : 3 * w // 4] = 255  # wipe a third of the code
    path = tmp_path / "damaged.png"
    cv2.imwrite(str(path), img)
    _, records = scan_json(capsys, str(path))
    for tag in records[0]["tags"]:
        xs = [p[0] for p in tag["corners"]]
        assert len(tag["corners"]) == 4 and max(xs) - min(xs) > 20  # never all zero
