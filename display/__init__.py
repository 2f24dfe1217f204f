"""pygame rendering of any engine geometry, prompts and score panels; headless screenshots.

``view`` holds the view model, ``render`` draws it onto a Surface, ``window`` runs the display
loop, ``commands`` adds ``chessery render``, ``gallery`` renders the documentation images.
See docs/display.md.
"""

import os

# pygame prints a banner on import; chessery's output is read by scripts.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
