"""The shared dashboard without a browser: setup controls, history sentences, plain form
posts, re-issued seats and the rejoin page, amounts that never break, refusal wording."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict

from companion import games
from companion.config import WebConfig
from companion.games.base import OptionSpec
from companion.inputs import Source
from companion.table import Table
from tests.web.conftest import act, as_host, csrf_of, join, join_url, start_game
from web import create_app, render
from web.host import option_controls
from web.public import generic_sentence


def test_setup_controls_never_ask_for_json(tally_engine: object) -> None:
    engine = games.get("illegal")
    controls = {c["key"]: c for c in option_controls(engine, ["Ann", "Ben", "Cy"])}
    dealer = controls["dealer"]  # None by default: a seat option
    assert dealer["kind"] == "radio"
    assert [label for _, label, _ in dealer["choices"]] == [
        "Let the game choose", "Ann (seat 1)", "Ben (seat 2)", "Cy (seat 3)"]
    assert [on for *_, on in dealer["choices"]] == [True, False, False, False]
    for c in controls.values():
        assert c["kind"] in ("radio", "check", "number", "text")
        assert "_" not in c["label"]
    casablanca = {c["key"] for c in option_controls(games.get("casablanca"), ["A", "B"])}
    assert "agents" not in casablanca  # a map without a spec: its default applies


def test_an_option_spec_gives_radio_buttons_with_the_default_checked() -> None:
    engine = games.get("tally")
    specced = type(engine)(**{**{f: getattr(engine, f) for f in engine.__dataclass_fields__},
                              "option_specs": {"target": OptionSpec(
                                  "Points to win", "Whoever reaches it wins.",
                                  choices=((20, "Twenty"), (30, "Thirty")))}})
    target = next(c for c in option_controls(specced, []) if c["key"] == "target")
    assert target["label"] == "Points to win" and target["help"] == "Whoever reaches it wins."
    assert target["choices"] == [("20", "Twenty", False), ("30", "Thirty", True)]


def test_setup_page_and_its_plain_post(app: Flask, table: Table, state_dir: Path) -> None:
    host = as_host(app, state_dir)
    page = host.get("/host/setup").get_data(as_text=True)
    assert "JSON" not in page and "<textarea" not in page
    resp = host.post("/host/setup", data=MultiDict([
        ("csrf_token", csrf_of(host)), ("game", "tally"), ("player", "Dee"),
        ("player", ""), ("player", "Flo"), ("target", "12"), ("hesitation_s", "1.5")]))
    assert resp.status_code == 303
    snap = table.hub.latest()
    assert snap.players == ("Dee", "Player 2", "Flo")
    assert snap.options["target"] == 12 and snap.options["hesitation_s"] == 1.5
    bad = host.post("/host/setup", data={"csrf_token": csrf_of(host), "game": "tally",
                                         "player": "Solo"})
    assert bad.status_code == 409 and "Not started" in bad.get_data(as_text=True)


def test_history_reads_as_sentences_without_secrets(app: Flask, table: Table) -> None:
    start_game(table, ["Ann", "Ben", "Cy"])
    assert act(table, {"do": "add", "n": 4}).accepted
    assert act(table, {"do": "secret", "seat": 1, "value": 4242}, Source.of_seat(1)).accepted
    from companion.inputs import Command

    assert table.submit(Command("undo", {})).result(300).accepted
    html = app.test_client().get("/history").get_data(as_text=True)
    items = [re.sub(r"<[^>]+>", "", li).split() for li in
             re.findall(r"<li\b[^>]*>(.*?)</li>", html, re.S)]
    texts = [" ".join(words[1:]) for words in items]  # without the time
    assert texts == ["The host took back: Ben: secret",
                     "Undone: Ben: secret",
                     "Add"]  # "n" is not a public key: the generic sentence leaves it out
    assert "4242" not in html
    part = app.test_client().get("/history?part=1").get_data(as_text=True)
    assert part.lstrip().startswith('<ol class="history"')


def test_generic_sentence_uses_names_and_card_names() -> None:
    nasty7 = games.get("nasty7")
    text = generic_sentence(nasty7, {"do": "accuse", "seat": 0, "against": 2,
                                     "card": "twin_racketeer"}, ["Ann", "Ben", "Cy"])
    assert text == "Ann: accuse: Twin racketeers, against Cy"


def test_amounts_never_break() -> None:
    euros = render._euros(5000)
    assert euros == '<span class="amt">5\u202f000\u00a0€</span>'
    assert render._money(4200) == '<span class="amt">$4,200</span>'
    assert render.humanise("white_hotel") == "White hotel"
    assert render.seat_name(["Ann"], 3) == "Player 4"


def test_plain_posts_round_trip() -> None:
    fragment = ('<form class="act" data-do="play" data-extra=\'{"fast": true}\'>'
                '<select name="card"><option value="gun" selected>Gun</option></select>'
                '<input name="count" data-type="int" value="3">'
                '<input type="checkbox" name="sure" data-type="bool"></form>'
                '<form class="act" data-post="/elsewhere" data-do="x"></form>')
    html = render.plain_posts(fragment, "/seat/0/act", "tok")
    assert 'method="post" action="/seat/0/act"' in html
    assert html.count("method=") == 1  # a form with its own data-post is left alone
    fields = dict(re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', html))
    assert fields["do"] == "play" and fields["csrf_token"] == "tok"
    import html as html_lib

    form = MultiDict({k: html_lib.unescape(v) for k, v in fields.items()})
    form.add("card", "gun")
    form.add("count", "3")
    assert render.action_from_form(form) == {"do": "play", "card": "gun", "count": 3,
                                             "sure": False, "fast": True}
    form["count"] = "three"
    with pytest.raises(ValueError, match="Count"):
        render.action_from_form(form)


def test_plain_posts_carry_item_rows_like_the_bribe_sheet() -> None:
    """Casablanca's bribe sheet (one amount per agent) works without JavaScript too."""
    import html as html_lib

    row = ('<input name="amount" data-type="int" data-item="amounts" data-key="agent" '
           'data-keyval="{}">')
    fragment = ('<form class="act" data-do="bribe">' + row.format("red") + row.format("blue")
                + row.format("green") + "</form>")
    html = render.plain_posts(fragment, "/seat/0/act", "tok")
    fields = dict(re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', html))
    form = MultiDict({k: html_lib.unescape(v) for k, v in fields.items()})
    for value in ("300", "", "0"):  # as a browser posts them, in the page's order
        form.add("amount", value)
    assert render.action_from_form(form) == {"do": "bribe",
                                             "amounts": [{"agent": "red", "amount": 300}]}


def test_seat_form_posted_without_javascript(app: Flask, table: Table,
                                             state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben", "Cy"])
    host = as_host(app, state_dir)
    ann = join(app, host, 0)
    resp = ann.post("/seat/0/act", data={"csrf_token": csrf_of(ann), "do": "secret",
                                         "__types": '{"value": "int"}', "value": "7"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/seat/0")
    assert table.hub.latest().private[0]
    assert "7" in str(table.hub.latest().private[0])
    assert app.test_client().post("/seat/0/act", data={"do": "secret"}).status_code == 403


def test_reissue_replaces_the_old_phone_and_a_new_game_asks_to_rejoin(
        app: Flask, table: Table, state_dir: Path) -> None:
    start_game(table, ["Ann", "Ben", "Cy"])
    host = as_host(app, state_dir)
    ben = join(app, host, 1)
    panel = host.get("/host").get_data(as_text=True)
    assert panel.count("Joined on a phone") == 1 and panel.count("Not joined yet") == 2
    assert 'href="/seat/1">My seat' in ben.get("/").get_data(as_text=True)
    resp = host.post("/host/seat/1/reissue", data={"csrf_token": csrf_of(host)})
    assert resp.status_code == 303
    page = ben.get("/seat/1")
    assert page.status_code == 403
    assert "Your seat was handed to another phone" in page.get_data(as_text=True)
    assert ben.get("/api/seat/1").status_code == 403
    assert "My seat" not in ben.get("/").get_data(as_text=True)
    ben2 = join(app, host, 1)  # the new code works
    assert ben2.get("/seat/1").status_code == 200
    start_game(table, ["Ann", "Cy"])
    page = ben2.get("/seat/1")
    assert page.status_code == 403
    text = page.get_data(as_text=True)
    assert "New game: scan your code again" in text and "secret" not in text.lower()
    assert join_url(host, 0)


def test_a_reissued_seat_stays_reissued_after_a_restart(
        app: Flask, table: Table, state_dir: Path) -> None:
    """A restart must not let the replaced phone back in, nor lock out the new one."""
    start_game(table, ["Ann", "Ben", "Cy"])
    host = as_host(app, state_dir)
    old = join(app, host, 1)
    assert host.post("/host/seat/1/reissue",
                     data={"csrf_token": csrf_of(host)}).status_code == 303
    new = join(app, host, 1)
    restarted = create_app(table, web_config=WebConfig(), state_dir=state_dir, testing=True)
    for client in (old, new):  # the same cookies, against the restarted dashboard
        client.application = restarted
    assert old.get("/seat/1").status_code == 403
    assert new.get("/seat/1").status_code == 200
    panel = as_host(restarted, state_dir).get("/host").get_data(as_text=True)
    assert panel.count("Joined on a phone") == 1
