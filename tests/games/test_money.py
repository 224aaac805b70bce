"""Every amount a player reads is written one way (``companion.games.money``): the games'
sentences and the web's filters. Illegal's log once wrote "-67 000 €" beside a standing
that wrote "−67 000 €"."""

from __future__ import annotations

import pytest

from companion.games import money
from companion.games.illegal.events import HandScored
from companion.games.illegal.fold import sentence
from web import render

MINUS, NNBSP, NBSP = "\u2212", "\u202f", "\u00a0"


@pytest.mark.parametrize(("amount", "euros", "dollars"), [
    (0, f"0{NBSP}€", "$0"),
    (65000, f"65{NNBSP}000{NBSP}€", "$65,000"),
    (-67000, f"{MINUS}67{NNBSP}000{NBSP}€", f"{MINUS}$67,000"),
    (-1300, f"{MINUS}1{NNBSP}300{NBSP}€", f"{MINUS}$1,300"),
    (1234567, f"1{NNBSP}234{NNBSP}567{NBSP}€", "$1,234,567"),
])
def test_an_amount_is_written_one_way(amount: int, euros: str, dollars: str) -> None:
    assert money.euros(amount) == euros
    assert money.dollars(amount) == dollars
    # the web's filters write the same words, in a span that never breaks
    assert render._euros(amount) == f'<span class="amt">{euros}</span>'
    assert render._money(amount) == f'<span class="amt">{dollars}</span>'


def test_illegals_log_writes_a_loss_with_a_true_minus() -> None:
    names = ["Ann", "Ben", "Cy"]
    line = sentence(names.__getitem__, HandScored((170000, -75000, -132000), (0, 0, 0),
                                                   False, (0,)))
    assert line == (f"Accounting: Ann 170{NNBSP}000{NBSP}€, Ben {MINUS}75{NNBSP}000{NBSP}€, "
                    f"Cy {MINUS}132{NNBSP}000{NBSP}€")
    assert "-" not in line


@pytest.mark.parametrize(("value", "text"), [
    (2, "+2"), (-2, f"{MINUS}2"), (0, "0"), (-10, f"{MINUS}10"), (1500, f"+1{NNBSP}500"),
])
def test_a_term_of_a_sum_is_signed_with_a_true_minus(value: int, text: str) -> None:
    """Crime Lords' success number, term by term: "+2" and "−2", never "-2"."""
    assert money.signed(value) == text
    assert render._signed(value) == f'<span class="amt">{text}</span>'
