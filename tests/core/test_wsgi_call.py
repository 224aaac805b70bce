"""The one WSGI call the dashboard and the league both make (companion.wsgi_call)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.wsgi_call import run_wsgi, status_code


class Answer:
    """A WSGI answer that records whether it was closed."""

    def __init__(self, parts: list[bytes], fail_at: int | None = None) -> None:
        self.parts, self.fail_at, self.closed = parts, fail_at, False

    def __iter__(self) -> Iterator[bytes]:
        for i, part in enumerate(self.parts):
            if i == self.fail_at:
                raise RuntimeError("the body broke")
            yield part

    def close(self) -> None:
        self.closed = True


def test_written_and_returned_parts_come_back_in_order_and_the_answer_is_closed() -> None:
    answer = Answer([b"b", b"c"])

    def app(environ: dict[str, Any], start_response: Any) -> Answer:
        write = start_response("201 CREATED", [("X-Seen", environ["PATH_INFO"])])
        write(b"a")
        return answer

    status, headers, body = run_wsgi(app, {"PATH_INFO": "/push"})
    assert (status, headers, body) == ("201 CREATED", [("X-Seen", "/push")], b"abc")
    assert status_code(status) == 201
    assert answer.closed


def test_an_answer_that_breaks_while_read_is_still_closed() -> None:
    answer = Answer([b"a", b"b"], fail_at=1)

    def app(environ: dict[str, Any], start_response: Any) -> Answer:
        start_response("200 OK", [])
        return answer

    with pytest.raises(RuntimeError, match="the body broke"):
        run_wsgi(app, {})
    assert answer.closed


def test_without_the_body_the_answer_is_closed_unread() -> None:
    answer = Answer([b"never read"], fail_at=0)

    def app(environ: dict[str, Any], start_response: Any) -> Answer:
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        return answer

    assert run_wsgi(app, {}, body=False) == (
        "200 OK", [("Content-Type", "text/event-stream")], b"")
    assert answer.closed
