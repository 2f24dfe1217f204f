"""The service: the I/O shell around a :class:`~controller.session.Session`, as parts with one
job each (docs/controller.md draws them and the flow of one event):

* ``bus``: the typed input messages on the controller's one queue;
* ``loop``: the controller thread (the queue, the deadlines, the stall grace);
* ``boards``: the board links, their forwarders, each board's picture, link notices, board
  clock offsets, the readings the session syncs to;
* ``controls``: panel buttons, touches, the operator menu (its actions: ``controller.operator``);
* ``outputs``: stdout, SAN, messages, beeps, the panel's lights, the view, the board lights;
* ``status_file``: the file ``chessery status`` reads; ``readiness``: systemd's notify socket;
* ``demo``: the simulated board, the demo script and the scripted player;
* ``service``: the composition (``Service``); ``run``: ``chessery run``.
"""

from .bus import Button, Drained, Input, LinkChange, Quit, Sensor, Touch, Wake
from .demo import DemoBoard, demo_script
from .run import configure, exit_status, run_service
from .service import Service

__all__ = ["Button", "DemoBoard", "Drained", "Input", "LinkChange", "Quit", "Sensor", "Service", "Touch", "Wake",
           "configure", "demo_script", "exit_status", "run_service"]
