"""``chessery run``: the configuration (the file with the command line on top), the demo when no
port is configured, the store, the window and the service composed from them, signals, and the
exit status."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from dataclasses import replace
from pathlib import Path

import engine
from firmware_bridge.board_link import BoardKind

from ..board_map import SensorMap
from ..config import Config, load_config
from ..logs import setup_logging, write_safely
from ..players import chosen_players
from ..run_options import kiosk_overrides
from ..store import GameStore
from .bus import Touch
from .demo import DEMO_ANSWER_MS, DemoBoard, demo_script, stop_when_demo_done
from .service import Service

log = logging.getLogger("chessery")


def configure(args: argparse.Namespace) -> Config:
    """The configuration file with the command line's options on top."""
    config = load_config(args.config)
    over: dict = {}
    if args.variant is not None:  # --variant "" is a mistake, not "the default"
        over["variant"] = args.variant
    if args.port:
        over["port"] = tuple(args.port)
    if args.board:
        over["board"] = args.board
    if args.layout:
        over["layout"] = args.layout
    if args.orientation is not None:
        over["orientation"] = args.orientation
    if args.db:
        over["db"] = args.db
    if args.frame:
        over["frame"] = args.frame
    if args.status_file:
        over["status_file"] = args.status_file
    if args.headless:
        over["display"] = "headless"
    elif args.kiosk:
        over["display"] = "kiosk"
    if args.no_gpio:
        over["gpio"] = replace(config.gpio, enabled=False)
    over.update(kiosk_overrides(args))
    chosen = {name: player.text() for name, player in chosen_players(args).items()}
    if chosen:
        over["players"] = tuple({**dict(config.players), **chosen}.items())
    return replace(config, **over)


def _frame_path(config: Config) -> Path:
    if config.frame:
        return Path(config.frame)
    import platformdirs

    return Path(platformdirs.user_cache_dir("chessery")) / "frame.png"


def _status_path(config: Config) -> Path:
    if config.status_file:
        return Path(config.status_file)
    from ..status import default_path

    return default_path()


def run_service(args: argparse.Namespace) -> int:
    config = configure(args)
    setup_logging(config.link_log)  # before anything that may have something to say
    variant = engine.find_variant(config.variant)
    from ..ports import check_port

    for url in config.port:
        warning = check_port(url)  # a URL that can never work stops here, with one line
        if warning:
            log.warning("%s", warning)
    layout = None
    if config.layout:
        from hardware.layout import load_layout

        layout = load_layout(config.layout)
    mode = config.display
    if mode == "windowed" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        log.info("no screen (DISPLAY is not set): running headless")
        mode = "headless"
    answers: list[str] = []
    board: DemoBoard | None = None
    demo_lines: list[str] = []
    demo_protocol: BoardKind = "chessery"
    if not config.port:
        # A DGT or Millennium board asked for and none plugged in: the demo plays on an emulated
        # board of that make, where the game fits one 8x8 board.
        if config.board != "chessery":
            if variant.geometry.size == 64:
                demo_protocol = config.board
            else:
                log.warning("a %s board has 64 squares and %s has %d cells: the demo plays on our own "
                            "simulated board", config.board, variant.name, variant.geometry.size)
        demo_lines = demo_script(variant, args.demo_moves, watched=mode != "headless",
                                 identity=demo_protocol != "chessery")
        answers = [line.split(None, 1)[1] for line in demo_lines if line.startswith("choose ")]
        if config.layout:
            log.info("the simulated board numbers its sensors by engine cell; --layout ignored")
            layout = None
        if config.players:  # the demo's script plays every side
            log.warning("the demo game plays every side itself: the players chosen are not used")
        config = replace(config, port=(), orientation=0, board=demo_protocol, players=())
    if args.answers:
        from firmware_bridge.script import Choose, load_script

        answers = [c.answer for c in load_script(args.answers, variant) if isinstance(c, Choose)]
    sensor_map = SensorMap(variant, layout, config.orientation, boards=max(1, len(config.port)))
    store = GameStore(config.db or None, demo=bool(demo_lines))
    from display.window import Window

    frame = _frame_path(config) if mode == "headless" else None
    if frame is not None:
        frame.parent.mkdir(parents=True, exist_ok=True)
    if demo_lines:
        board = DemoBoard(variant, demo_lines, protocol=demo_protocol)
        config = replace(config, port=(board.path,))
        log.info("demo game on a simulated %sboard at %s",
                 "" if demo_protocol == "chessery" else f"{demo_protocol} ", board.path)
    service = Service(config, variant, store, sensor_map, answers=answers,
                      answer_delay_ms=0 if mode == "headless" else DEMO_ANSWER_MS, print_moves=mode == "headless",
                      status_path=_status_path(config))
    window = Window(mode, config.size, snapshot=frame, title=f"Chessery: {variant.title}",
                    on_input=lambda ev: service.inputs.put(Touch(ev)))
    service.window = window
    if frame is not None:
        write_safely(sys.stdout, f"frame: {frame}\n")

    def on_signal(signum: int, _frame: object) -> None:
        service.request_stop()  # the window stops after the controller's last frame

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    service.start()
    if board is not None and (args.exit_when_done or mode == "headless"):
        threading.Thread(target=stop_when_demo_done, args=(service, board), daemon=True).start()
    try:
        window.run()
    finally:
        service.stop()
        if board is not None:
            board.stop()
        store.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return exit_status(service)


def exit_status(service: Service) -> int:
    """0 after a requested stop; 1, with the reason on the log, when the referee stopped by
    itself (so systemd restarts it and the journal says why)."""
    if service.error is None:
        return 0
    exc = service.error
    log.error("the referee stopped: %s: %s", type(exc).__name__, exc)
    return 1
