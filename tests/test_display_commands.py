"""``chessery render`` writes a real PNG of the requested size; bad input gets one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from controller.cli import main
from display import theme

FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"


def colours(image: pygame.Surface) -> set[tuple[int, int, int]]:
    w, h = image.get_size()
    pixels = (image.get_at((x, y)) for x in range(0, w, 3) for y in range(0, h, 3))
    return {(c.r, c.g, c.b) for c in pixels}


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080), (480, 800)])
def test_render_writes_a_png_of_the_requested_size(tmp_path: Path, capsys, size: tuple[int, int]) -> None:
    out = tmp_path / "frame.png"
    assert main(["render", "chess", "--size", f"{size[0]}x{size[1]}", "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    image = pygame.image.load(str(out))
    assert image.get_size() == size
    seen = colours(image)
    # Not blank: both square colours, the panel, and white and black pieces are there.
    for colour in (*theme.SQUARES, theme.PANEL, theme.SIDE_COLOURS["white"][0], theme.SIDE_COLOURS["black"][0]):
        assert colour in seen
    assert len(seen) > 50


def test_render_defaults_to_the_pi_display_and_shows_a_given_position(tmp_path: Path) -> None:
    out = tmp_path / "mate.png"
    assert main(["render", "chess", "--fen", FOOLS_MATE, "--out", str(out)]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (800, 480)
    # The mated white king's cell (e1) is tinted red for check.
    assert any(c[0] > 200 and c[1] < 120 and c[2] < 120 for c in colours(image))


@pytest.mark.parametrize(("args", "message"), [
    (["render", "nosuchgame"], "unsupported variant: 'nosuchgame'"),
    (["render", "chess", "--fen", "not a position"], "chess"),
    (["render", "chess", "--size", "800"], "bad size '800': expected WIDTHxHEIGHT"),
    (["render", "chess", "--size", "10x10"], "bad size '10x10': width must be"),
    (["render", "chess", "--size", "99999x480"], "bad size '99999x480'"),
])
def test_bad_input_is_one_line_and_exit_status_2(tmp_path: Path, capsys, args: list[str], message: str) -> None:
    out = tmp_path / "frame.png"
    assert main([*args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("chessery render: ") and message in err and err.count("\n") == 1
    assert not out.exists()


def test_output_must_be_a_png_in_an_existing_directory(tmp_path: Path, capsys) -> None:
    assert main(["render", "chess", "--out", str(tmp_path / "frame.jpg")]) == 2
    assert ".png" in capsys.readouterr().err
    assert main(["render", "chess", "--out", str(tmp_path / "missing" / "frame.png")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
