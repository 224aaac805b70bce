"""What one dashboard app holds: ``WebState`` in ``app.extensions``, and ``state()``.

``web.app.create_app`` puts one ``WebState`` in ``app.extensions["table_companion"]``;
views, guards and streams reach it through ``state()`` (the current app) and the server
through ``state_of(app)``. There are no module globals: two apps in one process (tests)
never share a table, a guard or a cache. The app only submits ``Command``s to the table
(``WebState.submit``) and reads its ``Snapshot``s.
"""

from __future__ import annotations

import threading
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

from flask import Flask, current_app

from companion.config import WebConfig
from companion.inputs import HOST, Command, Result, Source
from companion.table import Table
from web.auth import Guard
from web.limits import PostLimit
from web.render import RenderCache

EXTENSION = "table_companion"
SUBMIT_TIMEOUT_S = 10.0

#: camera zones: name -> normalised polygon (0..1 of the frame)
Polygons = dict[str, list[tuple[float, float]]]


class Camera(Protocol):
    """The vision pipeline as the dashboard sees it.

    Optional: ``undo_growth() -> Polygons | None`` (``GrowingCamera``): every zone that
    grew as cards landed goes back to the drawing; returns the zones as drawn, or None
    when nothing grew. A camera without it has zones that never grow.
    """

    def live_jpeg(self) -> bytes | None: ...

    def status(self) -> dict[str, Any]: ...

    def set_zones(self, polygons: Polygons) -> None: ...


class GrowingCamera(Camera, Protocol):
    """A camera whose pile grows as cards land (``vision.zonegrow``), and the host's undo."""

    def undo_growth(self) -> Polygons | None: ...


@dataclass
class WebState:
    """Everything one dashboard app holds (``app.extensions["table_companion"]``)."""

    table: Table
    web_config: WebConfig
    state_dir: Path
    guard: Guard
    camera: Camera | None = None
    #: the configured game (``[table] game`` or ``serve --game``): the setup page's first choice
    default_game: str = ""
    #: the config's player names (``[table] players``): the setup page's first names
    default_players: tuple[str, ...] = ()
    #: ``serve --demo``: the host page and the TV say it is a demo
    demo: bool = False
    closing: threading.Event = field(default_factory=threading.Event)
    cache: RenderCache = field(default_factory=RenderCache)
    zones: Polygons = field(default_factory=dict)
    #: posts per seat (the host is never limited)
    post_limit: PostLimit = field(default_factory=PostLimit)
    _streams: int = 0
    _by_address: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def stream_opened(self, address: str = "?", cap: int | None = None) -> bool:
        """Count a new stream of ``address``; False (nothing counted) past ``cap``."""
        with self._lock:
            have = self._by_address.get(address, 0)
            if cap is not None and have >= cap:
                return False
            self._by_address[address] = have + 1
            self._streams += 1
            return True

    def stream_closed(self, address: str = "?") -> None:
        with self._lock:
            self._streams -= 1
            left = self._by_address.get(address, 1) - 1
            if left > 0:
                self._by_address[address] = left
            else:
                self._by_address.pop(address, None)

    @property
    def streams(self) -> int:
        """How many live streams are open now."""
        with self._lock:
            return self._streams

    def seat_may_post(self, seat: int) -> bool:
        """Whether seat ``seat`` of the running game may post now (``web.limits``)."""
        return self.post_limit.allow((self.table.hub.latest().game_id, seat))

    def submit(self, name: str, args: dict[str, Any] | None = None,
               source: Source = HOST, request_id: str | None = None) -> Result:
        """Send a command to the table and wait for its answer (committed or refused).

        With ``request_id`` a retry of a request that was stored is answered "already
        done" and not stored again, even when the first answer never arrived.
        """
        future = self.table.submit(Command(name, args or {}, source=source,
                                           request_id=request_id))
        try:
            result = future.result(timeout=SUBMIT_TIMEOUT_S)
        except FutureTimeout:
            return Result(False, reason="The table did not answer in time; try again.")
        return result


def install(app: Flask, web_state: WebState) -> None:
    """Give ``app`` its ``WebState``."""
    app.extensions[EXTENSION] = web_state


def state_of(app: Flask) -> WebState | None:
    """The ``WebState`` of ``app``, or None for an app that ``create_app`` did not build."""
    return cast("WebState | None", app.extensions.get(EXTENSION))


def state() -> WebState:
    """The ``WebState`` of the current app."""
    return cast(WebState, current_app.extensions[EXTENSION])


__all__ = ["EXTENSION", "Camera", "GrowingCamera", "Polygons", "WebState", "install", "state", "state_of"]
