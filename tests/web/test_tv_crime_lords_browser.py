"""Crime Lords on the TV (1920×1080, Chromium): each Mob's tree shows who is under whom.

A recorded three-Mob game in its Gang War (``war_one_hit``: Ann's Boss Mom Parker, her
Lieutenant Bro Bronson, and Anita Callahan under him). tv.css's compact list margins
once reset the tree's indents on the TV, so every Crook stood at the Boss's edge and a
Lieutenant could not be told from the Crook under him. (The TV draws its own grid of Mobs,
``games/crime_lords/_tv_mobs.html``.) Screenshot:
``artifacts/screenshots/tv-crime-lords-tree.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.table import Table
from tests.browser import BROWSER, shot
from tests.web.tv_states import play, still_table

table = pytest.fixture(still_table, name="table")  # a table whose clock stands still

pytestmark = BROWSER

#: the left edge of each Crook of Ann's Mob, by name
EDGES = """() => Object.fromEntries([...document.querySelectorAll(
  'article.tv-mob[aria-label="Ann\\'s Mob"] ul.tv-tree > li')].map(li => [
    li.querySelector('.cn').textContent.trim(), Math.round(li.getBoundingClientRect().left)]))"""




def test_the_tv_shows_each_crook_under_his_superior(table: Table, live_url: str,
                                                    browser: Any, state_dir: Path) -> None:
    play(table, "crime_lords", "war_one_hit", "war")
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, color_scheme="dark")
    page = ctx.new_page()
    page.goto(f"{live_url}/?tv=1")
    page.wait_for_function("document.documentElement.dataset.tvScale !== undefined")
    page.evaluate("() => document.fonts.ready.then(() => null)")
    shot(page, "tv-crime-lords-tree")
    edges = page.evaluate(EDGES)
    assert set(edges) == {"Mom Parker", "Bro Bronson", "Anita Callahan"}, edges
    assert edges["Mom Parker"] < edges["Bro Bronson"] < edges["Anita Callahan"], edges
    ctx.close()
