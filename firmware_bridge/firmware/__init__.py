"""Reference MicroPython firmware for the sensor board (portable logic runs under CPython too)."""
