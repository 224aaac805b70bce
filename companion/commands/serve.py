"""``companion serve [--demo]``: the table — camera, buttons, rules, store, dashboard.

Everything is wired here and nowhere else: the table loop (the one writer), the vision
pipeline feeding it tags, the GPIO appliance feeding it presses and playing its
signals, the dashboard reading its snapshots, and systemd's READY/WATCHDOG.
"""

from __future__ import annotations

import argparse
import errno
import json
import logging
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import games
from companion.config import Config, ConfigError, ZonesConfig, load_config
from companion.damage import open_table_store
from companion.lean import lean_process
from companion.network import EXTENSION as NETWORK
from companion.paths import default_config_path, state_dir, write_secret
from companion.store import StoreError
from companion.table import Table

log = logging.getLogger("companion.serve")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--demo", action="store_true",
                        help="no hardware: synthetic camera, simulated buttons, demo game")
    parser.add_argument("--config", type=Path, help="configuration file (TOML)")
    parser.add_argument("--host", help="address to listen on (default from config: 0.0.0.0)")
    parser.add_argument("--port", type=port_number,
                        help="port to listen on, 1-65535 (default from config: 8080)")
    parser.add_argument("--game", default=None,
                        help="demo: which game the demo plays (" + games.names_text() + "; "
                             "the first by default): a game with a camera demo plays through the "
                             "synthetic camera, the others replay a recorded game through phones")
    parser.add_argument("--verbose", action="store_true", help="log more")


def port_number(text: str) -> int:
    """``--port``: a whole number from 1 to 65535 (argparse says so otherwise)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give a whole number "
                                         "from 1 to 65535, e.g. 8080") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: ports go from 1 to 65535; "
                                         "8080 is the usual one")
    return port


def run(args: argparse.Namespace) -> int:
    lean_process()  # before numpy or cv2 is imported (companion/lean.py)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config or default_config_path())
    except ConfigError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    if args.config and not args.config.exists():
        print(f"companion serve: no config file at {args.config}; using the defaults",
              file=sys.stderr)
    if args.game is not None:

        try:
            games.get(args.game)
        except LookupError as exc:
            print(f"companion serve: {str(exc).strip(chr(39))}", file=sys.stderr)
            return 2
    folder = state_dir()
    try:
        # a damaged file is moved aside and kept; the notice tells the TV and the host
        store, notice = open_table_store(
            folder / ("demo-events.sqlite3" if args.demo else "events.sqlite3"))
    except StoreError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 1
    table = Table(store, notice=notice)
    table.start()
    parts: list[Any] = []
    try:
        return _serve(args, config, folder, table, parts)
    finally:
        for part in reversed(parts):
            try:
                part.stop() if hasattr(part, "stop") else part.close()
            except Exception:
                log.exception("stopping %s failed", type(part).__name__)
        table.stop()
        store.close()


def _serve(args: argparse.Namespace, config: Config, folder: Path, table: Table,
           parts: list[Any]) -> int:
    from companion import sdnotify
    from web import create_app
    from web.auth import host_line
    from web.server import serve

    game = games.get(args.game or config.table.game or games.DEFAULT_GAME).name  # canonical
    camera = _start_vision(config, table, args.demo, game, parts)
    appliance, press = _start_hardware(config, table, args.demo, parts)
    if camera is not None and appliance.player is not None:  # the camera check at start-up
        from hardware.signals import BootCheck
        parts.append(BootCheck(appliance.player, camera.status))
    if args.demo:
        parts.append(_start_demo(table, game, press))
    app = create_app(table, web_config=config.web, state_dir=folder, camera=camera, game=game,
                     players=tuple(config.table.players), demo=args.demo)
    network = _start_network(config, folder, args.demo)
    if network is not None:
        app.extensions[NETWORK] = network
    from companion.outbox import Outbox, Pusher, outbox_path  # finished games to a league
    parts.append(Pusher(Outbox(outbox_path(folder, table.store)), table.store).start())
    host = args.host or config.web.host
    port = args.port or config.web.port
    watchdog = _watchdog(table, parts)

    def ready() -> None:
        for line in console_lines(host_line(folder, host, port), host, port,
                                  game if args.demo else None, appliance.status().summary,
                                  network):
            print(line, flush=True)
        sdnotify.notify("READY=1\nSTATUS=serving the table on port " + str(port))
        if watchdog is not None:
            watchdog.start()

    try:
        serve(app, host, port, config.web.threads, on_ready=ready)
    except OSError as exc:
        print(f"companion serve: cannot listen on {host}:{port}: {_listen_advice(exc)}",
              file=sys.stderr)
        return 1
    sdnotify.notify("STOPPING=1")
    return 0


def _start_network(config: Config, folder: Path, demo: bool) -> Any:
    """The table's Wi-Fi (hardware.network; a fake NetworkManager in the demo), or None."""
    from hardware.fake_network import demo_runner
    from hardware.network import open_network

    return open_network(config.network, folder, runner=demo_runner() if demo else None)


def _start_demo(table: Table, game: str, press: Any) -> Any:
    """A game with a camera demo plays through the camera; the other games replay a
    recorded game through the phones' and host's commands."""
    from companion.demo import Director, RecordPlayer, demo_record, start_demo_game

    if games.get(game).has("camera_demo"):
        start_demo_game(table, game)
        director: Any = Director(table, press, game)
    else:
        director = RecordPlayer(table, demo_record(game))
    director.start()
    return director


def console_lines(host_line: str, host: str, port: int, demo: str | None, buttons: str,
                  network: Any) -> list[str]:
    """What ``serve`` prints once it serves: the host's link, how the TV and the phones
    join, the table's address, the demo (``demo``: its game) in words, the buttons and
    the Wi-Fi. The demo's Wi-Fi is a fake (``hardware.fake_network.demo_runner``: a made-up
    network and address): it is said to be simulated, never printed as if real."""
    lines = [host_line,
             "TV or laptop: open the Host link above there and choose \"TV view\": it shows "
             "the table, and the seats' join codes.",
             "Players join by scanning their seat's code on that screen with their phone.",
             f"Table: http://{_shown(host)}:{port}/   (phones on this network)"]
    if demo is not None:
        lines.append(_demo_text(demo))
    lines.append(f"Buttons: {buttons}")
    if network is not None and demo is not None:  # a made-up network is never shown as real
        lines.append("Wi-Fi: simulated in the demo (the real Wi-Fi is not touched).")
    elif network is not None:
        lines.append(f"Wi-Fi: {network.status().summary()}")
    return lines


def _demo_text(game: str) -> str:
    """What the demo of ``game`` does, in words: which game, which inputs are simulated."""

    title = games.get(game).title
    if games.get(game).has("camera_demo"):
        return (f"Demo: {title}. A synthetic camera plays the deck's real QR cards onto the "
                "pile and simulated table buttons call accusations; open the table page.")
    return (f"Demo: {title}. A recorded game replays as if sent from the players' phones and "
            "the host panel (no camera, no buttons); open the table page.")


def _watchdog(table: Table, parts: list[Any]) -> Any:
    """systemd's watchdog for the table loop (not started yet), when systemd asks for one."""
    from companion import sdnotify

    interval = sdnotify.watchdog_interval()
    if not interval:
        return None
    watchdog = sdnotify.Watchdog(table, interval)
    parts.append(watchdog)
    return watchdog


def _listen_advice(exc: OSError) -> str:
    """Why the port could not be opened, and what to do."""
    if exc.errno == errno.EADDRINUSE:
        return ("the port is in use: is another companion running (systemctl status "
                "companion)? Stop it, or choose another --port.")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "ports below 1024 need root: choose --port 8080 (or another above 1023)."
    if exc.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address: check --host (0.0.0.0: every address)."
    return f"{exc.strerror or exc}: check --host and --port."


def _shown(host: str) -> str:
    from web.auth import public_host

    return public_host(host)


def _start_vision(config: Config, table: Table, demo: bool, game: str,
                  parts: list[Any]) -> Any:
    """The camera pipeline feeding the table, or None when the camera cannot start."""
    try:
        from companion.decks import resolve_tag
        from companion.hwprobe import has_camera
        from vision.decoding import default_decoder
        from vision.pipeline import VisionPipeline
        from vision.sources import CameraError, open_source
    except ImportError as exc:
        log.warning("camera disabled: %s", exc)
        return None
    if demo:
        source = _demo_source(config, game)
    elif config.camera.source == "auto" and not has_camera():
        # a real table never watches the demo's synthetic cards: its tags are not this
        # deck's, and every one would be refused as "unknown tag" for good
        print(NO_CAMERA, flush=True)
        return None
    else:
        try:
            source = open_source(config.camera)
        except CameraError as exc:  # like a camera that is not plugged in: the table plays on
            log.warning("camera disabled: %s", exc)
            return None
    zones = saved_zones(config)
    recorder = start_clips(table, state_dir(), parts)
    pipeline = VisionPipeline(source, default_decoder(config.decoder.backend), config.tracking,
                              zones, on_event=lambda event: None if table.submit(event) else None,
                              resolve=resolve_tag,
                              clock=table.clock, on_frame=recorder.on_frame,
                              decode_zones=config.camera.decode == "zones",
                              landings=asks_unread_landings(table),
                              card_sides=config.camera.card_sides)
    table.input_delay_s = pipeline.delay_s  # a card in time reaches the table before its deadline
    saver = ZoneSaver(pipeline, drawn_zones(zones))
    pipeline.on_zones = saver.save_grown  # zones grown as cards land survive a restart
    grow_zones(table, pipeline)
    pipeline.start()
    parts.append(pipeline)
    return saver


#: the feature whose events grow a camera zone (``Engine.feature_events``)
ZONE_GROWTH = "zone_growth"
#: the feature of a game that asks the host about cards the camera saw land unread
UNREAD_LANDINGS = "unread_landings"


def asks_unread_landings(table: Table) -> Callable[[], bool]:
    """For the camera's landing watch, asked on every frame (on its decode thread): is
    the running game one that asks about cards that landed unread? No game, or another
    game: the watch does not run (and starts afresh when such a game starts)."""

    def asks() -> bool:
        session = table.session  # one read: the table loop may replace it meanwhile
        return session is not None and session.engine.has(UNREAD_LANDINGS)

    return asks


def grow_zones(table: Table, pipeline: Any) -> None:
    """The camera hears the table: whenever the running game says the host counted a card
    seen beside the pile (its ``zone_growth`` event), whoever sent that (a phone, a seat
    button, the demo), the zone nearest the card grows to take it in."""
    table.on_feature_event(ZONE_GROWTH, lambda _event: pipeline.count_beside())


NO_CAMERA = ("No camera found: this table runs without one. The host enters each card on "
             "the host panel (Game controls) instead.")


def start_clips(table: Table, folder: Path, parts: list[Any]) -> Any:
    """Dispute clips: a ring buffer of the camera's last seconds (fed by the pipeline's
    ``on_frame``) and a table listener saving each dispute's clip under ``folder/clips``."""
    from vision.clips import ClipKeeper, ClipRecorder
    from web.clips import CLIPS

    recorder = ClipRecorder()
    keeper = ClipKeeper(recorder, folder / CLIPS, origin=lambda: table.clock() - table.now())
    table.subscribe(keeper.listener)
    parts.append(keeper)
    return recorder


ZONES_FILE = "zones.json"
#: the zones as the host drew them, kept once a zone has grown as cards landed: the base
#: of the growth bound, so growth never compounds across restarts (``vision.zonegrow``)
DRAWN_ZONES_FILE = "zones-drawn.json"


def saved_zones(config: Config) -> ZonesConfig:
    """The zones drawn on the dashboard (state dir), else those of the config file."""
    path = state_dir() / ZONES_FILE
    if not path.exists():
        return config.zones
    try:
        return ZonesConfig(polygons=json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, OSError) as exc:
        log.error("ignoring %s (%s); using the zones of the config file", path, exc)
        return config.zones


def drawn_zones(zones: ZonesConfig) -> ZonesConfig:
    """The zones as drawn, before any grew: ``zones`` unless some grew (then the kept
    drawing, which a restart's pipeline takes as the base of the growth bound)."""
    path = state_dir() / DRAWN_ZONES_FILE
    if not path.exists():
        return zones
    try:
        return ZonesConfig(polygons=json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, OSError) as exc:
        log.error("ignoring %s (%s); the zones in use are the base of their growth", path, exc)
        return zones


class ZoneSaver:
    """The camera as the dashboard sees it; zones drawn there survive a restart.

    ``drawn``: the zones as the host drew them; zones grown since are bounded by them,
    across restarts too (``DRAWN_ZONES_FILE``).
    """

    def __init__(self, pipeline: Any, drawn: ZonesConfig | None = None) -> None:
        self.pipeline = pipeline
        self.drawn = drawn
        #: the zone files are written by the web (a drawing, an undo) and the decode
        #: thread (a growth); never held while calling into the pipeline, which holds its
        #: own zones lock while it saves a growth here
        self._lock = threading.RLock()
        if drawn is not None and drawn.polygons != pipeline.zones.polygons:
            pipeline.grower.reset(drawn.polygons)

    def live_jpeg(self) -> bytes | None:
        result: bytes | None = self.pipeline.live_jpeg()
        return result

    def status(self) -> dict[str, Any]:
        """The pipeline's status, with ``zones`` (as used now) and ``grown_zones``: every
        zone that grew since the drawing, as used now (after a restart too; the camera
        page draws them dashed and offers to undo them)."""
        result: dict[str, Any] = dict(self.pipeline.status())
        result.setdefault("zones", {n: [list(p) for p in pts]
                                    for n, pts in self.pipeline.zones.polygons.items()})
        grown = getattr(self.pipeline, "grown_zones", None)
        if grown is not None:
            result.setdefault("grown_zones", {n: [list(p) for p in pts]
                                              for n, pts in grown().items()})
        return result

    def set_zones(self, polygons: dict[str, list[tuple[float, float]]]) -> None:
        checked = ZonesConfig(polygons=polygons)  # raises ValueError on a bad polygon
        with self._lock:
            # saved first: a refused save (companion.atomic.SaveError) changes nothing
            write_secret(state_dir() / ZONES_FILE, json.dumps(checked.polygons),
                         what="the camera zones")
            (state_dir() / DRAWN_ZONES_FILE).unlink(missing_ok=True)  # a new drawing, a new base
            self.drawn = checked
        self.pipeline.set_zones(checked.polygons)

    def save_grown(self, polygons: dict[str, list[tuple[float, float]]]) -> None:
        """A zone grew as cards landed (``vision.zonegrow``): saved atomically like the
        host's zones. A refused save is logged; the pipeline keeps the grown zone."""
        from companion.atomic import SaveError

        try:
            with self._lock:
                drawn_path = state_dir() / DRAWN_ZONES_FILE
                if self.drawn is not None and not drawn_path.exists():  # the base, kept first
                    write_secret(drawn_path, json.dumps(self.drawn.polygons),
                                 what="the camera zones as drawn")
                write_secret(state_dir() / ZONES_FILE,
                             json.dumps(ZonesConfig(polygons=polygons).polygons),
                             what="the camera zones")
        except (SaveError, ValueError) as exc:
            log.error("the grown camera zones were not saved: %s", exc)

    def undo_growth(self) -> dict[str, list[tuple[float, float]]] | None:
        """The host undoes the pile's growth: the zones as drawn (moved with the table
        if the camera was knocked and followed) are used and saved (``pipeline.undo_growth``
        saves them through ``save_grown``); they are the drawing again, so the kept
        drawing (``DRAWN_ZONES_FILE``) goes and they are the base of a later growth.
        Returns them, or None when nothing grew."""
        if not self.pipeline.grown_zones():
            return None
        polygons: dict[str, list[tuple[float, float]]] = self.pipeline.undo_growth()
        with self._lock:
            self.drawn = ZonesConfig(polygons=polygons)
            if not self.pipeline.grown_zones():  # a card may have grown the pile since
                (state_dir() / DRAWN_ZONES_FILE).unlink(missing_ok=True)
        return polygons

    def stop(self) -> None:
        self.pipeline.stop()


def _demo_source(config: Config, game: str) -> Any:
    from companion.demo import demo_payloads, demo_plays
    from vision.synthetic import CardPlay, SyntheticTable

    script: list[CardPlay] = []
    if games.get(game).has("camera_demo"):  # other demos play through phones: an empty table
        by_kind = demo_payloads(game)
        script = [CardPlay(p.payload, at=p.at, zone="pile", removed_at=p.removed_at)
                  for p in demo_plays(by_kind)]
    zones = {name: list(points) for name, points in config.zones.polygons.items()}
    return SyntheticTable([p.payload for p in script], script, width=config.camera.width,
                          height=config.camera.height, fps=min(config.camera.fps, 15.0),
                          zones=zones, loop=True)


def _start_hardware(config: Config, table: Table, demo: bool, parts: list[Any]) -> Any:
    """The GPIO appliance (mock pins in the demo) and a way to press its buttons."""
    import hardware

    factory = None
    if demo:
        from gpiozero.pins.mock import MockFactory

        factory = MockFactory()
    appliance = hardware.attach(table, config.gpio, config.signals, pin_factory=factory,
                                clock=table.clock)
    parts.append(appliance)
    if factory is None:
        return appliance, None
    pins = {"confirm": config.gpio.confirm_button, "next": config.gpio.next_button,
            "undo": config.gpio.undo_button}

    def press(role: str, seat: int | None) -> None:
        pin_no = config.gpio.seat_buttons[seat] if seat is not None else pins.get(role)
        if pin_no is None:
            return
        pin = factory.pin(pin_no)
        pin.drive_low()
        threading.Event().wait(0.12)
        pin.drive_high()

    return appliance, press
