import atexit
import os
import shutil
import tempfile

import pytest

# Headless everywhere: tests render real pygame surfaces with SDL's dummy drivers.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# One folder per test process, removed when it exits. The processes the tests start make their
# temporary files in it (TMPDIR): a simulated board's pty link lives in a folder of its own, and
# a board killed with SIGKILL (as every child a test ends) never removes it; hundreds used to
# pile up in /tmp. This process keeps the system's (read first: pytest's own folders go there).
tempfile.gettempdir()
TESTS_TMP = tempfile.mkdtemp(prefix="chessery-tests-")
atexit.register(shutil.rmtree, TESTS_TMP, True)
os.environ["TMPDIR"] = os.path.join(TESTS_TMP, "tmp")
os.mkdir(os.environ["TMPDIR"])
# The service keeps its status file in the user runtime folder: the tests' own, never the user's.
os.environ["XDG_RUNTIME_DIR"] = os.path.join(TESTS_TMP, "runtime")
os.mkdir(os.environ["XDG_RUNTIME_DIR"], 0o700)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long modules first: the whole games (``test_e2e_*``, ``*_e2e.py``) and the modules with a
    test marked ``slow``, then the rest, each in collection order. pytest-xdist hands tests to
    its workers in this order, so the run does not end with one worker on a long game while the
    others have nothing left to do. Whole modules move, so module-scoped fixtures start once."""
    long_modules = {item.path for item in items
                    if item.get_closest_marker("slow") is not None
                    or item.path.name.startswith("test_e2e_") or item.path.stem.endswith("_e2e")}
    items.sort(key=lambda item: item.path not in long_modules)


@pytest.fixture
def mock_pins():
    """gpiozero's MockFactory as the pin factory for one test; the previous factory comes back
    afterwards. Press a button with ``factory.pin(17).drive_low()``, read a light with
    ``factory.pin(5).state``."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def rig(tmp_path):
    """``rig(faults="", variant=None, **config)``: a started tests.service_rig.Rig (the simulated
    board with those faults, of that variant (chess if None), a service on it with those Config
    fields); all stopped afterwards."""
    from tests.service_rig import Rig

    rigs: list[Rig] = []

    def make(faults: str = "", variant=None, **config) -> Rig:
        if variant is not None:
            config["variant"] = variant
        rigs.append(Rig(tmp_path, faults, **config))
        rigs[-1].service.start()
        return rigs[-1]

    yield make
    for r in rigs:
        r.close()


@pytest.fixture
def broker(tmp_path):
    """A Mosquitto of the test's own on a free loopback port (the hall's tests), ended after it."""
    from controller.mosquitto import Mosquitto
    from tests.hall_rig import need_mosquitto

    need_mosquitto()
    with Mosquitto(tmp_path / "broker") as b:
        yield b
