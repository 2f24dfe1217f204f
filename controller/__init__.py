"""The Chessery service: sensor cells to engine cells, move inference, game sessions,
persistence, and driving the display and GPIO hardware. The decision core is pure."""
