"""Tag sheets: print to PDF, render at 150 dpi, read every code back with the project's decoder."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.decks import CALIBRATION_CARD, Deck, resolve_tag
from vision.decoding import default_decoder
from vision.tagsheet import (
    CALIBRATION_SIZES,
    Sticker,
    TagSheetError,
    qr_matrix,
    sticker_layout,
    write_tag_pdf,
)

needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm")


def render(pdf: Path, out: Path) -> list[Path]:
    """Every page of ``pdf`` as a 150 dpi grayscale PNG, in page order."""
    subprocess.run(
        ["pdftoppm", "-r", "150", "-gray", "-png", str(pdf), str(out / "page")], check=True
    )
    return sorted(out.glob("page-*.png"), key=lambda p: int(p.stem.split("-")[-1]))


def read_pages(pages: list[Path]) -> list[list[str]]:
    """The texts decoded on each page."""
    decoder = default_decoder()
    found = []
    for page in pages:
        image = cv2.imread(str(page), cv2.IMREAD_GRAYSCALE)
        assert image is not None, page
        found.append([d.text for d in decoder.decode(image)])
    return found


def check_deck_sheet(deck: Deck, pdf: Path, tmp_path: Path) -> list[list[str]]:
    """Every card of ``deck`` read exactly once from the sticker pages, mapped back."""
    texts = read_pages(render(pdf, tmp_path))
    stickers, calibration = texts[:-1], texts[-1]
    infos = [resolve_tag(t) for page in stickers for t in page]
    assert [i.status for i in infos] == ["ok"] * len(infos)
    serials = Counter(i.serial for i in infos)
    assert sorted(serials) == list(range(1, deck.total() + 1))
    assert set(serials.values()) == {1}
    for info in infos:
        card = deck.card(info.serial or 0)
        assert card is not None and info.card == card.id and info.deck == deck.name
    assert {resolve_tag(t).card for t in calibration} == {CALIBRATION_CARD}
    return texts


@needs_poppler
@pytest.mark.slow
def test_illegal_sheet_reads_back_every_card_once(tmp_path: Path, state_dir: Path) -> None:
    deck = Deck.new("illegal", "home")
    pdf = tmp_path / "illegal.pdf"
    assert main(["tags", "illegal", "--deck", "home", "--out", str(pdf)]) == 0
    texts = check_deck_sheet(deck, pdf, tmp_path)
    assert len(texts) == 3  # two sticker pages of 60 at 12 mm on A4, and the calibration card
    # 150 dpi: every size down to 8 mm (2.2 px per module) must be read
    assert len(texts[-1]) >= sum(1 for s in CALIBRATION_SIZES if s >= 8)


@needs_poppler
@pytest.mark.slow
def test_small_codes_on_letter_paper_read_back(tmp_path: Path) -> None:
    deck = Deck.new("nasty7", "club")
    deck.set_counts({"racketeer": 50, "gun": 20})
    pdf = tmp_path / "n7.pdf"
    args = ["tags", "nasty7", "--deck", "club", "--out", str(pdf), "--size", "9"]
    assert main([*args, "--paper", "letter"]) == 0
    check_deck_sheet(deck, pdf, tmp_path)


@needs_poppler
def test_casablanca_sheet_names_each_card(tmp_path: Path) -> None:
    deck = Deck.new("casablanca", "c")
    pdf = tmp_path / "c.pdf"
    assert main(["tags", "casablanca", "--deck", "c", "--out", str(pdf), "--size", "20"]) == 0
    check_deck_sheet(deck, pdf, tmp_path)
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    text = " ".join(text.split())  # names may wrap onto two lines
    for _, card in deck.physical():
        assert card.label() in text
    assert "Calibration card" in text and "30 mm" in text and "6 mm" in text


def test_pdf_is_reproducible(tmp_path: Path) -> None:
    stickers = [Sticker("T" + "A" * 19, "Racketeer", ("No. 1 of 1",))]
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    assert write_tag_pdf(a, stickers, "T" + "B" * 19, "t") == 2
    write_tag_pdf(b, stickers, "T" + "B" * 19, "t")
    assert a.read_bytes() == b.read_bytes()


def test_qr_matrix_is_version_1() -> None:
    matrix = qr_matrix("T" + "A" * 19)
    assert len(matrix) == 21 and all(len(row) == 21 for row in matrix)
    with pytest.raises(TagSheetError, match="at most 20"):
        qr_matrix("T" + "A" * 20)


@pytest.mark.parametrize(
    ("size", "paper", "message"),
    [(3.0, "a4", "out of range"), (80.0, "a4", "out of range"), (12.0, "a3", "unknown paper")],
)
def test_bad_layout_options_are_refused(size: float, paper: str, message: str) -> None:
    with pytest.raises(TagSheetError, match=message):
        sticker_layout(size, paper)


def test_layout_fills_the_page() -> None:
    lay = sticker_layout(12.0, "a4")
    assert (lay.cols, lay.rows) == (4, 15)
    assert sticker_layout(30.0, "letter").cols >= 2
