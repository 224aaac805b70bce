"""The board as data: spaces, homebases, the Basar, streets, limits, and moves on it."""

from __future__ import annotations

import pytest

from companion.games.base import IllegalAction, Setup, SetupError
from companion.games.casablanca import engine
from companion.games.casablanca.board import MAX_NAME, BoardError, default_board, parse_board
from companion.games.casablanca.state import upgrade_options
from tests.games.casablanca.helpers import RESOLVE, move, play, start


def test_default_board_has_homebases_in_the_corners_and_the_basar_in_the_centre() -> None:
    board = default_board()
    kinds = {s.id: s.kind for s in board.spaces}
    assert [s for s, k in kinds.items() if k == "homebase"] == [
        "ricks_cafe", "hotel", "police", "airport"
    ]
    assert kinds["basar"] == "centre"
    basar = board.space("basar")
    assert basar is not None and (basar.x, basar.y) == (0.5, 0.5)
    assert board.neighbours("basar") == ("souk", "kasbah", "harbour", "gate")
    assert "basar" not in board.neighbours("airport")  # two streets from every homebase
    for a, b in board.streets:  # streets go both ways
        assert a in board.neighbours(b) and b in board.neighbours(a)


def test_moves_go_only_to_neighbours_and_name_the_way() -> None:
    state = start(board=None)
    with pytest.raises(IllegalAction) as info:
        engine.decide(state, move(0, "red", "basar"), 0.0)
    assert info.value.reason == (
        "Basar is not next to Airport: Agent Red can go to Medina, Gate and Market."
    )
    state = play(state, move(0, "red", "Gate"), RESOLVE)  # a name works like an id
    assert state.agent("red").space == "gate"


def test_unknown_spaces_are_refused_and_never_become_spaces() -> None:
    state = play(start(board=None), move(0, "red", "gate"), RESOLVE)
    for to in ("mars", "bazaar", "", "x" * 60_000):
        with pytest.raises(IllegalAction) as info:
            engine.decide(state, move(1, "red", to), 0.0)
        reason = info.value.reason
        if len(to) <= 200:  # longer text is refused as too long before the rules see it
            assert "Agent Red can go to Basar, Medina, Market and Airport." in reason
        assert len(reason) < 200  # a 60 KB name is never echoed
    assert "bazaar" not in default_board().ids()


def test_the_host_may_give_their_own_board() -> None:
    board = {
        "spaces": [
            {"name": "Basar", "kind": "centre"}, {"name": "Airport", "kind": "homebase"},
            {"name": "Hotel", "kind": "homebase"}, {"name": "Police", "kind": "homebase"},
            {"name": "Rick's Café", "id": "ricks_cafe", "kind": "homebase"},
            {"name": "Long Street"},
        ],
        "streets": [["Airport", "Long Street"], ["Long Street", "Basar"], ["Basar", "hotel"],
                    ["basar", "police"], ["basar", "ricks_cafe"]],
    }
    state = start(board=board)
    assert state.options.board.neighbours("long_street") == ("basar", "airport")
    state = play(state, move(0, "red", "Long Street"), RESOLVE)
    assert state.agent("red").space == "long_street"


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ({"spaces": [{"name": "Basar"}, {"name": "x" * 41}], "streets": []}, "at most 40"),
        ({"spaces": [{"name": "Basar"}, {"name": "basar"}], "streets": []}, "share the name"),
        ({"spaces": [{"name": "Basar"}, {"name": "Souk"}], "streets": [["Basar", "Mars"]]},
         "not a space"),
        ({"spaces": [{"name": f"S{i}"} for i in range(65)], "streets": []}, "2 to 64"),
        ({"spaces": [{"name": "Basar"}, {"name": "Souk", "x": 2}], "streets": []}, "between 0"),
    ],
)
def test_bad_boards_say_what_to_fix(board: object, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        parse_board(board)
    with pytest.raises(SetupError, match="option 'board'"):
        start(board=board)


def test_a_board_without_the_homebases_is_refused() -> None:
    with pytest.raises(SetupError, match="no space"):
        start(board={"spaces": [{"name": "Basar"}, {"name": "Souk"}], "streets": []})


def test_names_have_length_limits() -> None:
    with pytest.raises(SetupError, match=f"at most {MAX_NAME}"):
        start(seats=("Ann", "B" * 41))
    with pytest.raises(SetupError, match=f"at most {MAX_NAME}"):
        start(agents={"red": "airport", "b" * 41: "hotel"})
    with pytest.raises(SetupError, match="settle_s"):
        start(settle_s=-1)


def test_views_offer_the_neighbours_and_the_board_for_drawing() -> None:
    view = engine.public_view(start(board=None))
    red = next(a for a in view["agents"] if a["id"] == "red")
    assert [n["name"] for n in red["neighbours"]] == ["Medina", "Gate", "Market"]
    assert view["board"]["drawn"] and len(view["board"]["spaces"]) == 13
    basar = next(s for s in view["board"]["spaces"] if s["id"] == "basar")
    assert basar["suitcase"] and basar["agents"] == []
    assert view["suitcase"]["space_name"] == "Basar"


def test_version_1_records_meant_no_board_and_protests_compared_at_once() -> None:
    assert upgrade_options(1, {}) == {"concessions": False, "board": "free",
                                      "unlimited_names": True}
    assert upgrade_options(1, {"board": {"a": ["b"]}}) == {
        "concessions": False, "board": {"a": ["b"]}, "exact_names": True,
        "unlimited_names": True}
    assert upgrade_options(2, {}) == {}


def test_version_1_of_the_later_release_keeps_its_options() -> None:
    """Version 1 was written by 419f6ec and by fed8c29 (docs/records.md, "Versions"): a key
    only fed8c29 wrote, or a board only it could read, shows the later dialect."""
    drawn = {"spaces": [{"id": "basar", "name": "Basar"}, {"id": "gate", "name": "Gate"}],
             "streets": [["basar", "gate"]]}
    for later in ({"concessions": True, "board": {"a": ["b"]}}, {"settle_s": 2.0},
                  {"protest_s": 0}, {"board": drawn}, {"board": {"a": "b"}}):
        assert upgrade_options(1, later) == later
    # the earlier release could read this map (spaces named "spaces" and "streets")
    assert upgrade_options(1, {"board": {"spaces": ["a"], "streets": ["b"]}})["exact_names"]
    state = engine.new_game(Setup(seats=("Ann", "Ben"), options=upgrade_options(1, {})))
    # no board: any named space, any move (Red from the Airport straight to the Basar)
    state = play(state, move(0, "red", "basar"), RESOLVE, move(1, "red", "Mars"), RESOLVE)
    assert state.agent("red").space == "Mars"
    state = play(state, move(0, "red", "home"), RESOLVE)
    assert state.agent("red").space == "airport"
    with pytest.raises(IllegalAction):  # the typed action still needs a space
        engine.decide(state, move(1, "red", ""), 0.0)
