"""The card-stats pages and actions of the dashboard (web/cards.py): entered once, kept in
the deck, filled in the next game, reviewed and printed by the host."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from companion.decks import Deck, stored_stats
from companion.table import Table
from tests.wait import until
from tests.web.conftest import act, app, as_host, csrf_of, join, start_game, table  # noqa: F401

SLIM = {"name": "Slim", "power": 1, "resistance": 1}


def _game(tbl: Table) -> None:
    start_game(tbl, ["Ann", "Ben"], game="crime_lords", options={"draw_rule": "free"})
    for action in (
        {"do": "take_mob", "seat": 0, "card": "mob_01", "stats": {"boss_bonus": 3}},
        {"do": "take_mob", "seat": 1, "card": "mob_02", "stats": {"boss_bonus": 2}},
        {"do": "buy", "seat": 0, "card": "crook_01", "price": 5,
         "stats": {"name": "Mom", "power": 6, "resistance": 4}},
        {"do": "buy", "seat": 1, "card": "crook_03", "price": 5,
         "stats": {"name": "Judge", "power": 5, "resistance": 5}},
        {"do": "choose_boss", "seat": 0, "card": "crook_01"},
        {"do": "choose_boss", "seat": 1, "card": "crook_03"},
        {"do": "start", "first": 0},
        {"do": "collect", "seat": 0},
    ):
        assert act(tbl, action).accepted, action


def test_stats_sent_with_a_phones_action_are_kept_in_the_deck(
    app: Flask, table: Table, state_dir: Path,  # noqa: F811
) -> None:
    Deck.new("crime_lords", "home", state_dir)
    _game(table)
    assert act(table, {"do": "draw", "seat": 0, "card": "crook_20"}).accepted
    phone = join(app, as_host(app, state_dir), 0)
    page = phone.get("/seat/0").get_data(as_text=True)
    assert "Enter the stats of the new Crook" in page and "crook_20" not in page.split(
        "data-moves")[0]
    answer = phone.post("/api/seat/0/action", json={"action": {
        "do": "stats", "seat": 0, "card": "crook_20", "stats": SLIM}},
        headers={"X-CSRF-Token": csrf_of(phone)})
    assert answer.get_json()["accepted"], answer.get_json()
    assert stored_stats(Deck.load("home", state_dir), "crook_20") == SLIM
    other = phone.post("/cards/act/seat/1", json={"action": {"do": "end_turn"}},
                       headers={"X-CSRF-Token": csrf_of(phone)})
    assert other.status_code == 403  # a phone acts for its own seat only


def test_a_known_card_drawn_by_the_camera_needs_no_typing(
    app: Flask, table: Table, state_dir: Path,  # noqa: F811
) -> None:
    deck = Deck.new("crime_lords", "home", state_dir)
    deck.set_card_stats(8 + 20, SLIM)
    _game(table)
    assert act(table, {"do": "draw", "seat": 0, "card": "crook_20"}).accepted
    # the dashboard's listener answers on the loop
    until(lambda: table.hub.latest().public.get("pending") is None, "the known card's stats")
    view = table.hub.latest().public
    assert view["pending"] is None
    assert [c["name"] for c in view["center"]] == ["Slim"]


def test_the_host_reviews_corrects_and_prints_the_cards(
    app: Flask, table: Table, state_dir: Path,  # noqa: F811
) -> None:
    Deck.new("crime_lords", "home", state_dir)
    assert app.test_client().get("/cards").status_code == 403
    host = as_host(app, state_dir)
    page = host.get("/cards").get_data(as_text=True)
    assert "0 of 112 cards entered" in page and "Crook 07" in page and "crook_07" not in page
    saved = host.post("/cards/home/15", data={
        "csrf_token": csrf_of(host), "name": "Bro", "power": "4", "resistance": "2"})
    assert saved.status_code == 303
    assert Deck.load("home", state_dir).card_stats(15) == {
        "name": "Bro", "power": 4, "resistance": 2}
    bad = host.post("/cards/home/15", data={"csrf_token": csrf_of(host), "power": "four"})
    assert bad.status_code == 400 and "The power must be a whole number" in bad.get_data(
        as_text=True)
    printed = host.get("/cards/print").get_data(as_text=True)
    assert "Crook 07" in printed and "Bro" in printed and "1 of 36 entered" in printed


def test_the_host_buys_a_known_card_without_typing_its_stats(
    app: Flask, table: Table, state_dir: Path,  # noqa: F811
) -> None:
    deck = Deck.new("crime_lords", "home", state_dir)
    deck.set_card_stats(9, {"name": "Mom", "power": 6, "resistance": 4})
    start_game(table, ["Ann", "Ben"], game="crime_lords")
    host = as_host(app, state_dir)
    # the deck is loaded by a listener on the loop: wait for the page to name the card
    until(lambda: any(m in host.get("/host").get_data(as_text=True)
                      for m in ("&#34;Mom&#34;", '"Mom"')), "the deck's card named on the page")
    page = host.get("/host").get_data(as_text=True)
    assert "Ann won a card" in page and ("&#34;Mom&#34;" in page or '"Mom"' in page)
    answer = host.post("/api/host/action", json={"action": {
        "do": "buy", "seat": 0, "card": "crook_01", "price": 4}},
        headers={"X-CSRF-Token": csrf_of(host)})
    assert answer.get_json()["accepted"], answer.get_json()
    assert table.hub.latest().public["mobs"][0]["crooks"][0]["name"] == "Mom"


def test_a_whole_deck_in_one_sitting_with_pick_lists(
    app: Flask, table: Table, state_dir: Path,  # noqa: F811
) -> None:
    Deck.new("crime_lords", "home", state_dir)
    host = as_host(app, state_dir)
    page = host.get("/cards").get_data(as_text=True)
    assert '<select id="f-50-district" name="district">' in page  # racket_01 is #45
    assert "<option>North Side</option>" in page and "<option>Street Gang</option>" in page
    saved = host.post("/cards/home/45", data={
        "csrf_token": csrf_of(host), "name": "North Side Casinos", "income": "3",
        "resistance": "2", "district": "North Side", "type": "Casinos", "then": "next"})
    assert saved.status_code == 303 and "open=46" in saved.headers["Location"]
    assert Deck.load("home", state_dir).card_stats(45) == {
        "name": "North Side Casinos", "income": 3, "resistance": 2, "district": "North Side",
        "type": "Casinos"}
    bad = host.post("/cards/home/46", data={"csrf_token": csrf_of(host), "district": "Uptown"})
    assert bad.status_code == 400 and "is not a district of the list" in bad.get_data(as_text=True)
    assert Deck.load("home", state_dir).card_stats(46) is None


def test_the_stats_go_out_and_come_back_as_a_sheet(
    app: Flask, table: Table, state_dir: Path,  # noqa: F811
) -> None:
    deck = Deck.new("crime_lords", "home", state_dir)
    deck.set_card_stats(9, {"name": "Mom", "power": 6, "resistance": 4})
    host = as_host(app, state_dir)
    sheet = host.get("/cards/home.csv")
    assert sheet.mimetype == "text/csv"
    text = sheet.get_data(as_text=True)
    assert "Crook 01,crook,Mom,6,4" in text
    Deck.new("crime_lords", "club", state_dir)

    def send(body: str) -> tuple[int, str]:
        import io

        answer = host.post("/cards/club/import", data={
            "csrf_token": csrf_of(host), "sheet": (io.BytesIO(body.encode()), "s.csv")},
            content_type="multipart/form-data")
        return answer.status_code, answer.get_data(as_text=True)

    code, page = send(text.replace("Crook 02,crook,,", "Crook 02,crook,Slim,two,", 1))
    assert code == 400 and "Row 11 (Crook 02): the power must be a whole number" in page
    assert Deck.load("club", state_dir).card_stats(9) is None  # nothing half-imported
    code, _ = send(text)
    assert code == 303 and Deck.load("club", state_dir).card_stats(9) == {
        "name": "Mom", "power": 6, "resistance": 4}


def test_the_deck_is_loaded_into_a_new_game_and_its_cards_named(
    app: Flask, table: Table, state_dir: Path,  # noqa: F811
) -> None:
    deck = Deck.new("crime_lords", "home", state_dir)
    deck.set_card_stats(9, {"name": "Mom", "power": 6, "resistance": 4})
    start_game(table, ["Ann", "Ben"], game="crime_lords")

    def labels() -> list[str]:
        host = table.hub.latest().host or {}
        return [c["label"] for m in host.get("moves", []) for p in m.get("params", [])
                for c in p.get("choices", [])]

    # the dashboard's listener answers on the loop: wait for the card's name
    until(lambda: "Mom" in labels(), "the deck's card offered by name")
    labels = labels()
    assert "Mom" in labels and not [x for x in labels if x.startswith("Crook 0")]
    assert any(m["label"] == "Ann won a new Crook" for m in (table.hub.latest().host or {})[
        "moves"])
