"""Reference firmware for a Raspberry Pi Pico (RP2040) under MicroPython: the pin layer.

Copy crc_cobs.py, protocol.py, debounce.py, leds.py, matrix.py, core.py, app.py and this main.py
to the Pico's root directory (``mpremote cp firmware_bridge/firmware/*.py :``); it starts at power-on
and speaks the protocol of docs/protocol.md over the USB CDC serial port. Everything but this
file is portable logic that the host's tests run under CPython.

Wiring (one matrix; a second one for two-board games repeats the row enable and column signal):

* rows: a 16-channel multiplexer (CD74HC4067) used as a demultiplexer; its common pin is held
  low (ROW_SIGNAL), so the selected row is pulled low; S0..S3 on ROW_SELECT, /EN on ROW_ENABLE;
* columns: a second CD74HC4067; S0..S3 on COL_SELECT, its common pin on COL_SIGNAL with the
  Pico's pull-up;
* a reed switch (or hall switch) with a diode from each column to its row: a piece's magnet
  closes it, which reads low (0) on the column: occupied;
* lights: a WS2812 chain, one light per cell in cell order, data on LED_PIN.

An identity board replaces ``PicoPins.col`` with its reader and returns piece bytes
(docs/protocol.md, "Piece bytes") instead of 0/1, and sets IDENTITY.
"""

import os
import select
import sys
import time

import machine
import micropython
import neopixel
from app import FirmwareApp
from matrix import Matrix

# -- configuration -------------------------------------------------------------------------------
ROWS = 8  # up to 16 per multiplexer: 13 for a 13x13 board
COLS = 8
BOARDS = 1  # 2 for Alice chess on one controller (2 x 8 x 8 = 128 cells)
CELL_MAP = None  # None: row-major numbering; else a list per position (see matrix.py), -1 = no sensor
ROW_SELECT = (2, 3, 4, 5)
ROW_ENABLE = (6, 7)  # per matrix, active low
ROW_SIGNAL = 14
COL_SELECT = (8, 9, 10, 11)
COL_SIGNAL = (12, 13)  # per matrix
LED_PIN = 16
LED_COLOUR = (0, 40, 0)
SETTLE_US = 3  # the multiplexer's output settles in well under a microsecond; the pull-up does not
IDENTITY = False
WATCHDOG_MS = 2000  # a hung loop resets the board; the host handles that as a board reset


class PicoPins:
    def __init__(self):
        self.row_select = [machine.Pin(n, machine.Pin.OUT) for n in ROW_SELECT]
        self.row_enable = [machine.Pin(n, machine.Pin.OUT, value=1) for n in ROW_ENABLE[:BOARDS]]
        self.col_select = [machine.Pin(n, machine.Pin.OUT) for n in COL_SELECT]
        self.col_signal = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in COL_SIGNAL[:BOARDS]]
        self.row_signal = machine.Pin(ROW_SIGNAL, machine.Pin.OUT, value=0)

    def row(self, board, row):
        for bit, pin in enumerate(self.row_select):
            pin.value((row >> bit) & 1)
        for index, enable in enumerate(self.row_enable):
            enable.value(0 if index == board else 1)

    def col(self, board, col):
        for bit, pin in enumerate(self.col_select):
            pin.value((col >> bit) & 1)
        time.sleep_us(SETTLE_US)
        return 0 if self.col_signal[board].value() else 1


class UsbPort:
    def __init__(self):
        micropython.kbd_intr(-1)  # a 0x03 byte inside a frame must not stop the program
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.out_poll = select.poll()
        self.out_poll.register(sys.stdout, select.POLLOUT)
        self.inp = sys.stdin.buffer
        self.outp = sys.stdout.buffer

    def read(self):
        data = bytearray()
        while len(data) < 300 and self.poll.poll(0):
            chunk = self.inp.read(1)
            if not chunk:
                break
            data.extend(chunk)
        return data

    def write(self, data):
        # Never block the scan: with no host holding the port (or one that does not read) the
        # USB buffer stays full; what is not taken waits in the core's bounded queue.
        if not self.out_poll.poll(0):
            return 0
        taken = self.outp.write(data)
        return len(data) if taken is None else taken


class NeoLights:
    def __init__(self, pin, count):
        self.pixels = neopixel.NeoPixel(machine.Pin(pin), count)
        self.shown = None

    def show(self, levels):
        if levels == self.shown:
            return  # rewriting 169 lights every loop would cost a millisecond for nothing
        for cell in range(len(levels)):
            self.pixels[cell] = LED_COLOUR if levels[cell] else (0, 0, 0)
        self.pixels.write()
        self.shown = bytes(levels)


def run():
    matrix = Matrix(PicoPins(), ROWS, COLS, BOARDS, CELL_MAP)
    board_id = int.from_bytes(machine.unique_id()[-4:], "big")
    boot_id = int.from_bytes(os.urandom(2), "big")
    lights = NeoLights(LED_PIN, matrix.cells)
    app = FirmwareApp.boot(matrix, UsbPort(), 0, lights, boot_id=boot_id, board_id=board_id,
                           identity=IDENTITY, leds=True)
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    last = time.ticks_ms()
    now = 0
    while True:
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last)  # ticks_ms wraps; the core wants an ever-growing clock
        last = tick
        app.step(now)
        watchdog.feed()
        time.sleep_ms(1)


run()
