"""Every subcommand answers bad input with a sentence and exit 1 or 2, never a traceback.

Each case runs the real ``companion`` in a child process with its own state folder.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from companion.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[2]


def companion(tmp_path: Path, *args: str, state: Path | None = None,
              timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TABLE_COMPANION_STATE=str(state or tmp_path / "state"),
               TABLE_COMPANION_CONFIG=str(tmp_path / "none.toml"))
    env.pop("COMPANION_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=tmp_path, env=env)


def clean(proc: subprocess.CompletedProcess[str], codes: tuple[int, ...] = (1, 2)) -> str:
    """The error text, after checking there is no traceback and the exit code."""
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    assert proc.returncode in codes, (proc.returncode, proc.stderr)
    assert proc.stderr.strip(), "an error needs a sentence"
    return proc.stderr


def _png_header(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` x ``height`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\0" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND",
                                                                                      b"")


def test_replay_of_a_non_utf8_file(tmp_path: Path) -> None:
    record = tmp_path / "bad.jsonl"
    record.write_bytes(b'{"record": "table-companion", "version": 1, \xff\xfe}\n')
    err = clean(companion(tmp_path, "replay", str(record)))
    assert "UTF-8" in err and ":1:" in err


def test_replay_of_a_deeply_nested_line(tmp_path: Path) -> None:
    record = tmp_path / "deep.jsonl"
    record.write_text("[" * 100_000 + "\n", encoding="utf-8")
    assert "nested too deeply" in clean(companion(tmp_path, "replay", str(record)))


def test_replay_of_nan(tmp_path: Path) -> None:
    record = tmp_path / "nan.jsonl"
    record.write_text('{"record": "table-companion", "version": 1, "game": "nasty7", '
                      '"seats": 3, "seed": NaN}\n', encoding="utf-8")
    assert "number" in clean(companion(tmp_path, "replay", str(record)))


def test_serve_with_an_unknown_game(tmp_path: Path) -> None:
    err = clean(companion(tmp_path, "serve", "--demo", "--game", "bogus", "--port", "1"))
    assert "unknown game" in err and "nasty7" in err


def test_export_on_a_read_only_state_folder(tmp_path: Path) -> None:
    state = tmp_path / "read-only"
    state.mkdir()
    state.chmod(0o500)
    try:
        proc = companion(tmp_path, "export", state=state / "inner")
        if proc.returncode == 0:  # root writes anyway: a folder root cannot create
            proc = companion(tmp_path, "export", state=Path("/sys/companion-state"))
        assert "read-only" in clean(proc)
    finally:
        state.chmod(0o700)


def test_export_to_a_file_that_cannot_be_written(tmp_path: Path) -> None:
    err = clean(companion(tmp_path, "export", "nope", "--out", str(tmp_path / "x" / "y")))
    assert "cannot" in err


def test_scan_of_a_png_claiming_huge_pixels(tmp_path: Path) -> None:
    image = tmp_path / "huge.png"
    image.write_bytes(_png_header(100_000, 100_000))
    clean(companion(tmp_path, "scan", str(image)))


@pytest.mark.parametrize("args", [
    ("replay", "/no/such/file.jsonl"),
    ("export", "no-such-game"),
    ("deck", "split", "no-such-deck"),
    ("tags", "bogus", "--deck", "x", "--out", "x.pdf"),
    ("scan", "/no/such/photo.png"),
    ("bench", "web", "--clients", "-5"),
    ("bench", "nothing"),
    ("no-such-command",),
])
def test_bad_arguments_everywhere(tmp_path: Path, args: tuple[str, ...]) -> None:
    clean(companion(tmp_path, *args))


def test_every_subcommand_is_covered() -> None:
    covered = {"replay", "export", "deck", "tags", "scan", "bench", "serve", "host", "doctor"}
    assert set(COMMANDS) <= covered


def test_bench_web_at_a_tiny_size(tmp_path: Path) -> None:
    proc = companion(tmp_path, "bench", "web", "--clients", "3", "--hostile", "4",
                     "--events", "3", "--json")
    assert "Traceback" not in proc.stderr and proc.returncode in (0, 1), proc.stderr
    assert '"clients": 3' in proc.stdout


@pytest.mark.slow
@pytest.mark.timeout(3600)  # a safety net: under arm64 emulation this takes ~10x longer
def test_bench_as_a_whole(capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``companion bench`` runs store, vision and web in turn (it crashed on web: the
    dispatcher passed ``--json`` as the client count). Every part really runs, at a tiny
    size (``COMPANION_BENCH_SCALE``, a few clients and events)."""
    from companion.cli import main

    monkeypatch.setenv("COMPANION_BENCH_SCALE", "0.01")
    status = main(["bench", "--clients", "3", "--hostile", "4", "--events", "3"])
    out = capsys.readouterr()
    assert status in (0, 1), out.err
    assert "web:" in out.out and "vision" in out.out.lower()
    assert "Traceback" not in out.err
