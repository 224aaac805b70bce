"""Illegal on the dashboard: the phone, host and table fragments offer every action."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from companion import games
from companion.inputs import TABLE
from companion.table import Table
from tests.web.conftest import act, as_host, join, post_json, start_game
from tests.web.yourmove import card_moves, offers, why_not

pytestmark = pytest.mark.skipif("illegal" not in games.available(), reason="no Illegal engine")


def _play(table: Table, seat: int, card: str, **keys: object) -> None:
    res = act(table, {"do": "play", "seat": seat, "card": card, **keys})
    assert res.accepted, res.reason


def test_phone_and_host_forms_follow_the_moves(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben"], game="illegal")
    host = as_host(app, state_dir)
    ann, ben = join(app, host, 0), join(app, host, 1)
    page = ann.get("/seat/0").get_data(as_text=True)
    allowed = {m["do"] for m in card_moves(page) if m["allowed"]}
    assert {"play", "discard", "trade"} <= allowed, allowed
    assert why_not(page, "End your turn") == "Play or discard a card first: every turn needs one"
    assert "Trade only on your own turn" in why_not(ben.get("/seat/1").get_data(as_text=True),
                                                    "Trade cards")
    # an uneven trade from Ann's phone
    resp = post_json(
        ann, "/api/seat/0/action", {"action": {"do": "trade", "with": 1, "give": 1, "get": 2}}
    )
    assert resp.get_json()["accepted"], resp.get_json()
    assert "You: 8 cards in hand" in ann.get("/seat/0").get_data(as_text=True)
    _play(table, 0, "market_open")
    _play(table, 1, "market_open")
    _play(table, 0, "tax_inspection", target=1)
    # Ben lays his hand open, a card at a time from his card; the table view shows it
    assert offers(ben.get("/seat/1").get_data(as_text=True),
                  "Lay a card of your hand open (6 to go)")
    for card in ["brokering", "alibi", "alibi", "raid", "pimps", "gambling"]:
        resp = post_json(ben, "/api/seat/1/action",
                         {"action": {"do": "show_card", "seat": 1, "card": card}})
        assert resp.get_json()["accepted"], resp.get_json()
    public = app.test_client().get("/").get_data(as_text=True)
    assert "Open hand (Tax Inspection)" in public and "Brokering" in public
    # a Magnum shown in the play zone: the host page asks whose
    assert act(table, {"do": "magnum_shown"}, TABLE).accepted  # the camera's
    panel = host.get("/host").get_data(as_text=True)
    assert "Whose Magnum?" in panel and "Ben's Magnum" in panel  # the host's tools
    assert offers(ben.get("/seat/1").get_data(as_text=True), "It is my Magnum")
    _play(table, 1, "magnum")  # removes the Tax Inspection: the open hand is hidden again
    public = app.test_client().get("/").get_data(as_text=True)
    assert "Open hand (Tax Inspection)" not in public


def test_bribe_asks_for_its_cost_on_the_phone(app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben"], game="illegal")
    host = as_host(app, state_dir)
    ann = join(app, host, 0)
    _play(table, 0, "market_open")
    _play(table, 1, "vacation_in_sweden", target=0)
    _play(table, 0, "bribe")
    page = ann.get("/seat/0").get_data(as_text=True)
    assert "next, the business card it costs" in page
    (done,) = [m for m in card_moves(page) if m["label"] == "Complete Bribe"]
    assert done["allowed"] and done["params"][0]["label"] == (
        "Which business card from your hand does it cost?")
    assert "Complete the Bribe" in host.get("/host").get_data(as_text=True)  # the host's tools
    panel = host.get("/host").get_data(as_text=True)
    assert offers(panel, "Call off Ann's Bribe")
    resp = post_json(
        ann, "/api/seat/0/action", {"action": {"do": "play", "card": "bribe", "discard": "weapons"}}
    )
    assert resp.get_json()["accepted"], resp.get_json()
    assert table.hub.latest().public["seats"][0]["hassle"] is None


def test_camera_page_offers_zones_by_meaning_with_player_names(
    table: Table, state_dir: Path
) -> None:
    from companion.config import WebConfig
    from tests.web.test_host import FakeCamera
    from web import create_app
    from web.camera import zone_choices

    assert [c["name"] for c in zone_choices(["Ann", "Ben"])] == [
        "play", "discard", "seat:0", "seat:1"]
    start_game(table, ["Ann", "Ben"], game="illegal")
    cam = FakeCamera()
    app = create_app(table, web_config=WebConfig(), state_dir=state_dir, camera=cam,
                     testing=True)
    host = as_host(app, state_dir)
    page = host.get("/host/camera").get_data(as_text=True)
    assert '<option value="seat:1">In front of Ben</option>' in page
    assert '<option value="discard">Discard pile</option>' in page
    assert "seat:1" not in page.split('id="zone-choices"')[0].split("<select")[0]
    zone = [[0.1, 0.1], [0.9, 0.1], [0.5, 0.8]]
    resp = post_json(host, "/api/camera/zones", {"zones": {"seat:1": zone, "Casablanca": zone}})
    assert resp.status_code == 200
    assert sorted(cam.zones) == ["Casablanca", "seat:1"]  # any name stays possible
