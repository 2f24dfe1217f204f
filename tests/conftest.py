import os
import tempfile

# Headless everywhere: tests render real pygame surfaces with SDL's dummy drivers.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# The service keeps its status file in the user runtime folder: the tests' own, never the user's.
os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="chessery-tests-runtime-")


import pytest


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
