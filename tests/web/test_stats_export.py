"""The table's own BG Stats file (``/stats/plays.bgsplay``, no league): the same format
as the league's, checked by the same checker (tests/core/bgstats_format.py, the format
docs/league.md cites from a file the app itself exported)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.config import WebConfig
from companion.store import SqliteStore
from companion.table import Table
from tests.core.bgstats_format import check_format
from tests.league.tables import store_finished
from tests.web.conftest import FakeClock
from web import create_app


def test_the_tables_own_bgstats_file_has_the_apps_format(state_dir: Path,
                                                          tmp_path: Path) -> None:
    store = store_finished(SqliteStore(tmp_path / "events.sqlite3"))
    table = Table(store, clock=FakeClock())
    table.start()
    try:
        app = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                         testing=True)
        answer = app.test_client().get("/stats/plays.bgsplay?name=ana")
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert 'filename="plays.bgsplay"' in answer.headers["Content-Disposition"]
        data = json.loads(answer.data)
        check_format(data)
        ana = next(p["id"] for p in data["players"] if p["name"] == "Ana")
        assert data["userInfo"]["meRefId"] == ana
        # Ana's games only (she sat in the first of the three), each naming her
        assert data["plays"]
        for play in data["plays"]:
            assert ana in [s["playerRefId"] for s in play["playerScores"]]
        assert [loc["name"] for loc in data["locations"]] == ["This table"]
    finally:
        table.stop()
        store.close()
