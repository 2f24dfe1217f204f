"""Reader for the known-answer perft files in tests/data/."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"


def read_perft(name: str) -> list[tuple[str, str, int, int]]:
    """(id, position, depth, nodes) for every perft line of ``data/<name>.perft``."""
    out = []
    ident = epd = ""
    for line in (DATA / f"{name}.perft").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "id":
            ident = rest
        elif key == "epd":
            epd = rest
        elif key == "perft":
            depth, nodes = rest.split()
            out.append((ident, epd, int(depth), int(nodes)))
    return out
