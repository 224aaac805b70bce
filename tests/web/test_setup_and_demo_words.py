"""Two sentences of issue 38 that had no test: the setup page says whether a count of
cards dealt is per player or in all ("Cards dealt in all (not per player)"), and the
demo's console never prints the simulated Wi-Fi's made-up network or address as if it
were real ("Wi-Fi: simulated in the demo").
"""

from __future__ import annotations

import html
import re
import signal
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion import games
from companion.commands.serve import console_lines
from companion.config import NetworkConfig
from hardware.fake_network import demo_runner
from hardware.network import open_network
from tests.demo_server import demo_server
from tests.wait import SAFETY
from tests.web.conftest import as_host

#: a label of the setup page about cards dealt (or dealt out)
DEALT = re.compile(r"\bdealt\b|\bdeal(?:s|ing)?\b.*\bcards?\b", re.I)
#: how such a label says what it counts
COUNTED = re.compile(r"\bper player\b|\bin all\b|\beach player\b", re.I)


def labels(page: str) -> dict[str, str]:
    """Each option's control id -> the words of its label (a group of choices: its legend,
    not its choices' labels)."""
    groups = re.findall(r'<fieldset class="choices".*?</fieldset>', page, re.S)
    rest = re.sub(r'<fieldset class="choices".*?</fieldset>', "", page, flags=re.S)
    out = {f: html.unescape(t).strip()
           for f, t in re.findall(r'<label for="(opt-[^"]+)">(.*?)</label>', rest, re.S)}
    for block in groups:
        legend = re.search(r"<legend>(.*?)</legend>", block, re.S)
        first = re.search(r'id="(opt-[^"]+)-1"', block)
        if legend and first:
            out[first.group(1)] = html.unescape(legend.group(1)).strip()
    return out


def uncounted(page: str) -> list[str]:
    """The setup page's labels about cards dealt that do not say per player or in all."""
    return [f"{key}: {text}" for key, text in labels(page).items()
            if DEALT.search(text) and not COUNTED.search(text)]


def test_the_setup_page_says_cards_dealt_in_all(app: Flask, state_dir: Path) -> None:
    if "nasty7" not in games.available():
        pytest.skip("nasty7 is not installed")
    page = as_host(app, state_dir).get("/host/setup?game=nasty7").get_data(as_text=True)
    found = labels(page)
    assert found.get("opt-nasty7-deck_size") == "Cards dealt in all (not per player)", found
    assert uncounted(page) == [], uncounted(page)  # every game's options are on the page


def test_a_label_that_does_not_say_what_it_counts_is_caught() -> None:
    bad = '<label for="opt-x-deck_size">Cards dealt</label>'
    assert uncounted(bad) == ["opt-x-deck_size: Cards dealt"]
    good = ('<label for="opt-x-hand">Cards dealt per player</label>'
            '<label for="opt-x-deck">Cards dealt in all (not per player)</label>')
    assert uncounted(good) == []


def _network(tmp_path: Path) -> Any:
    network = open_network(NetworkConfig(), tmp_path, runner=demo_runner())
    assert network is not None
    return network


def test_the_demo_console_says_its_wifi_is_simulated(tmp_path: Path) -> None:
    network = _network(tmp_path)
    made_up = network.status()
    assert made_up.address and made_up.ssid, made_up  # what the fake would show
    shown = "\n".join(console_lines("Host: http://127.0.0.1:8080/host?token=x", "127.0.0.1",
                                    8080, "nasty7", "simulated", network))
    assert "Wi-Fi: simulated in the demo" in shown, shown
    for fake in (made_up.address.split("/")[0], made_up.ssid):
        assert fake not in shown, f"the demo printed its made-up {fake!r}:\n{shown}"
    # the same network on a real table is printed as it is (the check above can fail)
    real = "\n".join(console_lines("Host: x", "127.0.0.1", 8080, None, "none", network))
    assert made_up.address.split("/")[0] in real and made_up.ssid in real, real


@pytest.mark.slow
def test_the_demo_process_prints_no_made_up_address(tmp_path: Path, state_dir: Path) -> None:
    """``companion serve --demo`` as a newcomer's ``./run`` starts it: everything it
    printed, read after it was stopped."""
    (tmp_path / "fake").mkdir()
    made_up = _network(tmp_path / "fake").status()
    with demo_server(state_dir) as server:
        # its other lines come right after its Host line: stopped, it has printed them all
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.stdout is not None
        rest = server.proc.stdout.read()
        server.proc.wait(timeout=SAFETY)  # a safety net only
    printed = server.host_line + "\n" + rest
    assert "Wi-Fi: simulated in the demo" in printed, printed
    assert made_up.address.split("/")[0] not in printed and made_up.ssid not in printed, printed
    assert "Demo:" in printed, printed
