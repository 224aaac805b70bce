"""Version-1 records frozen at 419f6ec replay today as they did then (tests/records/v1_419f6ec).

Every ``v1_419f6ec/<game>/<name>.jsonl`` is a record exactly as it was at commit 419f6ec;
beside it ``<name>.then.json`` is what ``companion replay FILE --json`` printed with the code
of 419f6ec (or, for a record that was refused then, the line and reason of the refusal).
Neither file may ever be edited: see v1_419f6ec/README.md.

The current code must give the same: a key the current ``state_json`` added since is fine,
but every value that existed then must be equal (recursively; lists element by element with
the same rule). A refused record must still be refused at the same line, the same kind of
refusal.

``RULE_FIXES`` lists the differences that are expected because the old behaviour contradicted
the rules text (a rule fix, not a change of meaning). A key is ``"game/name"`` (the whole
record: it must still replay without error, nothing else is compared) or
``"game/name:json.path"`` (that value and everything under it, e.g.
``"casablanca/full_game:state.players[1].cash"``, ``"crime_lords/x:outcome"``,
``"nasty7/y:error"`` for a refusal). The value names the fix: commit hash and what the rules
text says. Any other difference is a change of meaning that the version-1 upgrade must undo.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.games.codec import event_to_json
from companion.records import RecordError, Replay, replay_path

FROZEN = Path(__file__).parent / "v1_419f6ec"
RECORDS = sorted(FROZEN.glob("*/*.jsonl"))
IDS = [f"{p.parent.name}/{p.stem}" for p in RECORDS]
#: version-1 records generated at random and replayed by the code of 419f6ec (same format:
#: ``<name>.then.json`` beside each; v1_generated/README.md says how they were made)
GENERATED = sorted((Path(__file__).parent / "v1_generated").glob("*/*.jsonl"))
GENERATED_IDS = [f"{p.parent.name}/{p.stem}" for p in GENERATED]
#: version-1 records written by the dashboard of fed8c29 (the release before format 2, whose
#: version 1 meant more than 419f6ec's) and replayed by that code (v1_fed8c29/README.md)
FED8C29 = sorted((Path(__file__).parent / "v1_fed8c29").glob("*/*.jsonl"))
FED8C29_IDS = [f"{p.parent.name}/{p.stem}@fed8c29" for p in FED8C29]
#: version-2 records written by the dashboard of 9b05956 (the last commit before The Nasty 7's
#: ``hand_entry_timing``: a card entered by hand started the clock) and replayed by that code;
#: ``<name>.then.json`` also holds every batch's events (v2_9b05956/README.md)
V2_9B05956 = sorted((Path(__file__).parent / "v2_9b05956").glob("*/*.jsonl"))
V2_9B05956_IDS = [f"{p.parent.name}/{p.stem}@9b05956" for p in V2_9B05956]

#: "game/name" or "game/name:json.path" -> the rule fix (commit + rules text) that explains
#: an allowed difference. Only real rule fixes belong here (docs/dev/record-v1-changes.md).
RULE_FIXES: dict[str, str] = {
}

#: SHA-256 (first 16 hex digits) of each frozen .jsonl and .then.json: they are never edited.
FROZEN_SHA256: dict[str, tuple[str, str]] = {
    "casablanca/bribe_after_lost_protest": ("a261047791815f1b", "8304cd926f99dc9b"),
    "casablanca/eliminate_without_1000": ("7ed29ac13a1ac5e8", "8b51febcea75b3a2"),
    "casablanca/full_game": ("3836250a04fb65df", "5f00d9d67d97f27e"),
    "casablanca/home_elimination_option": ("c11ca42746421ee4", "0728dd2a18673b0c"),
    "casablanca/mover_wins_tie": ("ae9fc3983e646c2a", "5178e2e0de1a855b"),
    "casablanca/over_budget": ("9b344dcaebd82245", "0b228b5c4494ca23"),
    "casablanca/protest_without_100": ("91c14c79358776c9", "38713dd8d492482b"),
    "casablanca/shared_win": ("38f708109cdd7646", "b3e4b592d6f25d07"),
    "crime_lords/full_game": ("d07c2bcba3762d4f", "f8fa17be64329ed5"),
    "crime_lords/pay_before_collect": ("299bf021507c91a2", "3c59dc5657c60ad5"),
    "crime_lords/recruit_boss": ("a247956c6cfa7c29", "462d2dd701196a1b"),
    "illegal/full_hand": ("d437d1102e00a65d", "a383f19410a65286"),
    "illegal/raid_refusal": ("7afeca7a4a003354", "d11c43f67fba1502"),
    "illegal/three_hand_match": ("8851851b801c04b9", "7101204af12dbda4"),
    "illegal/worked_hand": ("2ba9b7ac59e0120d", "ee7f684f9d02de2c"),
    "nasty7/accusation_pending_joined": ("d1ab12e113a504f5", "ca010626c44d5311"),
    "nasty7/even_nastier": ("f0f292e3f5344e0c", "1c33787cb7f02787"),
    "nasty7/full_game": ("800678e92459b659", "f923b9fb37a309df"),
    "nasty7/hesitation_2_9s": ("eb26115540405651", "cadabdd690d7e3b6"),
    "nasty7/hesitation_3_1s": ("8a552ff892a0ae04", "cc744986768fcb38"),
    "nasty7/nasty_word": ("1b76da712b700c77", "33c6356cd6ec2242"),
    "nasty7/not_upheld_three_accusers": ("549a66e6f9f48149", "ca010626c44d5311"),
    "nasty7/play_during_accusation": ("ffb91bdb2275fd4b", "79b3d9eb5cb7a9c3"),
    "nasty7/same_card_twice": ("53eaf3669518022f", "132a4b98a388119b"),
    "nasty7/skipped_seat_plays": ("6da0610bf1931d5b", "ff41d82305787e9f"),
    "nasty7/thousand_cards": ("ce9f3da641144480", "5657ce3e519535fe"),
    "nasty7/twin_two_players": ("e1dc0c70d897fb7a", "c416370bb8ecf119"),
    "nasty7/worked_example": ("32c79bb7e3c7963c", "846480a933afbc3c"),
}

REFUSED = "refused by the rules"


def differences(then: Any, now: Any, where: str) -> list[str]:
    """Every place where ``now`` lost or changed a value of ``then`` (new dict keys are fine)."""
    if isinstance(then, dict):
        if not isinstance(now, dict):
            return [f"{where}: then an object, now {_show(now)}"]
        out: list[str] = []
        for key, value in then.items():
            path = f"{where}.{key}"
            if key not in now:
                out.append(f"{path}: then {_show(value)}, now missing")
            else:
                out.extend(differences(value, now[key], path))
        return out
    if isinstance(then, list):
        if not isinstance(now, list):
            return [f"{where}: then a list, now {_show(now)}"]
        out = []
        if len(then) != len(now):
            out.append(f"{where}: then {len(then)} item(s), now {len(now)} item(s)")
        for i, (a, b) in enumerate(zip(then, now, strict=False)):
            out.extend(differences(a, b, f"{where}[{i}]"))
        return out
    if type(then) is not type(now) and not _both_numbers(then, now):
        return [f"{where}: then {_show(then)}, now {_show(now)}"]
    if then != now:
        return [f"{where}: then {_show(then)}, now {_show(now)}"]
    return []


def _both_numbers(a: Any, b: Any) -> bool:
    return all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 200 else text[:197] + "..."


def _covered(record_id: str, difference: str) -> bool:
    """Whether RULE_FIXES allows ``difference`` (a line of ``differences``) in this record."""
    path = difference.split(": ", 1)[0]
    for key in RULE_FIXES:
        name, _, fixed = key.partition(":")
        if name != record_id:
            continue
        if not fixed or path == fixed or path.startswith((fixed + ".", fixed + "[")):
            return True
    return False


def _kind(reason: str) -> str:
    return REFUSED if reason.startswith(REFUSED) else "malformed"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@pytest.mark.parametrize("record", RECORDS + GENERATED + FED8C29 + V2_9B05956,
                         ids=IDS + GENERATED_IDS + FED8C29_IDS + V2_9B05956_IDS)
def test_frozen_record_replays_as_then(record: Path) -> None:
    record_id = f"{record.parent.name}/{record.stem}"
    then = json.loads(record.with_suffix(".then.json").read_text(encoding="utf-8"))
    then.pop("batches", None)  # the events: test_frozen_record_replays_to_the_same_events
    whole = record_id in RULE_FIXES
    if "error" in then:
        line, reason = then["error"]["line"], then["error"]["reason"]
        try:
            result = replay_path(record)
        except RecordError as err:
            found = [] if (err.line == line and _kind(err.reason) == _kind(reason)) else [
                f"error: then line {line} ({reason}), now line {err.line} ({err.reason})"
            ]
        else:
            found = [f"error: then refused at line {line} ({reason}), now it replays "
                     f"(outcome {_show(result.outcome)})"]
        problems = [d for d in found if not _covered(record_id, d)]
        if problems:
            pytest.fail(f"{record_id}: " + "; ".join(problems), pytrace=False)
        return
    refused: RecordError | None = None
    try:
        now = replay_path(record).to_json()
    except RecordError as err:
        refused = err
    if refused is not None:
        pytest.fail(f"{record_id}: replayed then, now refused at line {refused.line}: "
                    f"{refused.reason}", pytrace=False)
    if whole:
        return
    found = differences(then, now, "")
    found = [d[1:] if d.startswith(".") else d for d in found]
    problems = [d for d in found if not _covered(record_id, d)]
    if problems:
        pytest.fail(f"{record_id} differs from {record.stem}.then.json:\n  "
                    + "\n  ".join(problems), pytrace=False)


def batches_json(replay: Replay) -> list[dict[str, Any]]:
    """Every batch of a replay as the ``batches`` of a ``.then.json`` (v2_9b05956/README.md):
    ``{"kind", "t", "action", "events": [{"type", ...payload}]}``."""
    out = []
    for b in replay.session.batches:
        events = []
        for e in b.events:
            kind, payload = event_to_json(e)
            events.append({"type": kind, **payload})
        out.append({"kind": b.kind, "t": b.t, "action": b.action.to_json(), "events": events})
    return out


@pytest.mark.parametrize("record", V2_9B05956, ids=V2_9B05956_IDS)
def test_frozen_record_replays_to_the_same_events(record: Path) -> None:
    """Every batch the old code decided, in order, with every event and every value it had
    (an event may carry a field added since; a batch or an event more or less is a change)."""
    then = json.loads(record.with_suffix(".then.json").read_text(encoding="utf-8"))["batches"]
    found = differences(then, batches_json(replay_path(record)), "batches")
    if found:
        pytest.fail(f"{record.stem} decides other events than then:\n  " + "\n  ".join(found),
                    pytrace=False)


def test_the_version_2_records_are_about_what_version_3_changed() -> None:
    """What the v2_9b05956 set is for: hesitation penalties the clock gave after a card the
    host entered by hand (``hand_entry_timing`` "clock" then), and after a card the camera
    saw beside the pile was dropped by the next play (``seen_one_at_a_time`` then)."""
    about = {"typed_in_5s_apart": "missed_card", "typed_with_ago": "missed_card",
             "seen_then_played": "seen_beside"}
    assert sorted(p.stem for p in V2_9B05956) == sorted(about)
    for record in V2_9B05956:
        assert json.loads(record.read_text(encoding="utf-8").splitlines()[0])["version"] == 2
        batches = json.loads(record.with_suffix(".then.json").read_text(encoding="utf-8"))[
            "batches"]
        first = min(i for i, b in enumerate(batches) if b["action"]["do"] == about[record.stem])
        penalties = [i for i, b in enumerate(batches) if b["kind"] == "deadline" and any(
            e["type"] == "PileTaken" and e["why"] == "hesitation" for e in b["events"])]
        assert penalties and first < min(penalties), record.stem


#: SHA-256 (first 16 hex digits) of each v2_9b05956 .jsonl and .then.json (never edited)
V2_9B05956_SHA256: dict[str, tuple[str, str]] = {
    "nasty7/seen_then_played@9b05956": ("2306be6ceef61694", "3596e134a62e5cfd"),
    "nasty7/typed_in_5s_apart@9b05956": ("ca4cd639e220f5b8", "f82fa060a54841ef"),
    "nasty7/typed_with_ago@9b05956": ("4554dff347a45b16", "fff833a4ef20acb3"),
}


def test_the_version_2_records_are_unedited() -> None:
    assert sorted(V2_9B05956_SHA256) == V2_9B05956_IDS
    for record, record_id in zip(V2_9B05956, V2_9B05956_IDS, strict=True):
        assert (_sha(record), _sha(record.with_suffix(".then.json"))) == V2_9B05956_SHA256[
            record_id], f"{record_id}: a frozen file was edited (never; v2_9b05956/README.md)"


def test_every_frozen_record_has_its_then_json_and_is_unedited() -> None:
    assert len(RECORDS) == 28, [str(p) for p in RECORDS]
    assert sorted(FROZEN_SHA256) == IDS
    for record, record_id in zip(RECORDS, IDS, strict=True):
        then = record.with_suffix(".then.json")
        assert then.exists(), f"{record_id} needs {then.name} beside it"
        assert (_sha(record), _sha(then)) == FROZEN_SHA256[record_id], (
            f"{record_id}: a frozen file was edited (they must never be; see README.md)"
        )


def test_rule_fixes_name_a_frozen_record_and_a_commit() -> None:
    for key, why in RULE_FIXES.items():
        assert key.partition(":")[0] in IDS + GENERATED_IDS, (
            f"RULE_FIXES[{key!r}]: no such frozen record")
        assert re.search(r"\b[0-9a-f]{7,40}\b", why), f"RULE_FIXES[{key!r}] names no commit"


def test_differences_can_fail() -> None:
    assert differences({"a": 1}, {"a": 1, "b": 2}, "") == []
    assert differences({"a": [{"x": 1}]}, {"a": [{"x": 1, "y": 2}]}, "") == []
    assert differences({"a": 1}, {"a": 2}, "") == [".a: then 1, now 2"]
    assert differences({"a": {"b": 1}}, {"a": {}}, "") == [".a.b: then 1, now missing"]
    assert differences({"a": [1]}, {"a": [1, 2]}, "") == [".a: then 1 item(s), now 2 item(s)"]
    assert differences({"a": [{"x": 1}]}, {"a": [{"x": 2}]}, "") == [".a[0].x: then 1, now 2"]
    assert differences({"a": None}, {"a": {}}, "") == [".a: then null, now {}"]
    assert differences({"a": 1}, {"a": True}, "") == [".a: then 1, now true"]
    assert differences({"a": 1}, {"a": 1.0}, "") == []
