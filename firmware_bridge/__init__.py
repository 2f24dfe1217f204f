"""The sensor-board serial protocol, the host link (pyserial), a simulated board, and the
reference firmware for the board's microcontroller."""
