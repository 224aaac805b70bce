"""What the table shows of its game: the snapshot it publishes, the history everyone may
read, and the current game as a record.

``companion.table`` (the loop) calls these after each change; they only read the session
(the game as a fold) and the stored game's header, and change nothing.
"""

from __future__ import annotations

from typing import Any

from companion.records import Header, record_lines
from companion.session import Session
from companion.snapshot import Refusal, Snapshot
from companion.store import GameInfo

#: action keys that may be shown to everyone in the history (amounts never are)
PUBLIC_ACTION_KEYS = ("do", "seat", "by", "against", "card", "target", "agent", "to", "kind",
                      "upheld", "suitcase")


def snapshot_of(seq: int, epoch: str, session: Session | None, info: GameInfo | None,
                refusal: Refusal | None, now: float) -> Snapshot:
    """The table as it is now: every view built once (the public part, one own part per
    seat and the host's), for ``Snapshot`` to hand out to whom may see it."""
    if session is None or info is None:
        return Snapshot(seq, epoch, refusal=refusal)
    engine, state = session.engine, session.state
    outcome = engine.outcome(state)
    waiting = engine.waiting(state)  # once: the TV, every phone and the host read it
    table = engine.table_view(state, waiting)
    return Snapshot(
        seq=seq,
        epoch=epoch,
        game_id=info.game_id,
        game=engine.name,
        title=engine.title,
        players=info.seats,
        options=dict(info.options),
        public=table["public"],
        waiting=table["waiting"],
        log=tuple(table["log"]),
        scores=table["scores"],
        private=tuple(engine.own_view(state, i, waiting) for i in range(len(info.seats))),
        host=engine.own_view(state, None, waiting),
        outcome=outcome.to_json() if outcome is not None else None,
        now=now,
        deadline=session.next_deadline(),
        refusal=refusal,
        can_undo=session.undoable() is not None,
    )


def record_of(session: Session | None, info: GameInfo | None) -> list[str]:
    """The current game as a record (header + actions); empty with no game."""
    if session is None or info is None:
        return []
    header = Header(info.game, info.seats, info.options, info.seed)
    return record_lines(header, session.record_actions())


def history_of(session: Session | None) -> list[dict[str, Any]]:
    """The game's inputs for everyone to see: time, public keys, undone."""
    if session is None:
        return []
    out = []
    for i, b in enumerate(session.batches):
        sent = b.action.to_json()
        public = {k: sent[k] for k in PUBLIC_ACTION_KEYS if k in sent}
        entry: dict[str, Any] = {"index": i, "t": round(b.t, 3), "kind": b.kind,
                                 "action": public, "undone": i in session.undone}
        if b.sender is not None:  # who sent it live: a seat, "host" or "table"
            entry["sent_by"] = b.sender
        out.append(entry)
    return out


__all__ = ["PUBLIC_ACTION_KEYS", "history_of", "record_of", "snapshot_of"]
