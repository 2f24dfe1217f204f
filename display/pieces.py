"""Piece pictures as cached sprites.

Standard pieces are the font's outline chess glyphs (U+2654..U+2659) drawn in the side's outline
colour over a silhouette filled with the side's colour. The silhouette is computed from the
outline glyph itself (everything not reachable from the outside), so fill and outline always line
up and any side colour works: white/black for two sides, blue/green/red for Triscacia. Dark
pieces (light outline colour) use the font's solid glyphs where the font draws them well, so their
details read as the font's black pieces do. Fairy
pieces are discs in the side's colour with their letter on them; the panel's legend names them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import cast

import pygame

from . import theme
from .view import PieceView

_OUTLINE_GLYPHS = {"king": 0x2654, "queen": 0x2655, "rook": 0x2656, "bishop": 0x2657, "knight": 0x2658,
                   "pawn": 0x2659}
# Dark pieces drawn from the font's solid glyphs. Not the king: DejaVu draws the black king with
# open lobes, which reads as a white king at a glance; it gets light strokes on a dark body instead.
_SOLID_DARK = frozenset({"queen", "rook", "bishop", "knight", "pawn"})
# DejaVu's chess glyphs are 44/60 of the font size tall: the ratio turns a piece height into a font size.
_GLYPH_HEIGHT = 44 / 60
_SUPERSAMPLE = 4
_CACHE_LIMIT = 512
_cache: dict[tuple, pygame.Surface] = {}


def sprite(piece: PieceView, sides: tuple[str, ...], size: int) -> pygame.Surface:
    """A ``size`` x ``size`` transparent surface with the piece centred on it."""
    size = max(4, int(size))
    fill, outline = theme.side_colours(sides, piece.side)
    key = (piece.glyph if piece.standard else "", piece.letter, piece.mark, fill, outline, size)
    found = _cache.get(key)
    if found is None:
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
        if piece.standard:
            found = _glyph_sprite(piece.glyph, fill, outline, size)
        else:
            found = disc_sprite(piece.letter, fill, outline, size)
        if piece.mark == "ring":
            found = _ringed(found, size)
        _cache[key] = found
    return found


def _ringed(picture: pygame.Surface, size: int) -> pygame.Surface:
    """The picture inside a band in the mark colour: the coloured tape the text puts round
    pieces that must be told apart from their look-alikes. Drawn large and scaled down, like
    the discs, so the band's edges are smooth."""
    big = size * _SUPERSAMPLE
    band = pygame.Surface((big, big), pygame.SRCALPHA)
    width = max(_SUPERSAMPLE * 2, round(big * 0.09))
    pygame.draw.circle(band, theme.MARK, (big / 2, big / 2), big * 0.49, width)
    out = picture.copy()
    out.blit(pygame.transform.smoothscale(band, (size, size)), (0, 0))
    return out


def _glyph_sprite(glyph: str, fill: theme.Colour, outline: theme.Colour, size: int) -> pygame.Surface:
    # Drawn large and scaled down: at small sizes the glyph's thin outline has gaps through which
    # the outside flood would leak into the body (knights and queens came out hollow).
    # A whole multiple keeps flat areas exactly the side's colour after the scaling.
    big = size * max(_SUPERSAMPLE, -(-160 // size))
    f = theme.font(round(big / _GLYPH_HEIGHT * 0.94))
    text = f.render(chr(_OUTLINE_GLYPHS[glyph]), True, outline)
    # Pad by a pixel so that the flood from the corner surrounds the whole glyph.
    padded = pygame.Surface((text.get_width() + 2, text.get_height() + 2), pygame.SRCALPHA)
    padded.blit(text, (1, 1))
    ink = pygame.mask.from_surface(padded, 40)
    ink.invert()
    outside = ink.connected_component((0, 0))
    outside.invert()
    if sum(outline) <= sum(fill) or glyph not in _SOLID_DARK:
        # The outline glyph's ink over a body in the side's colour.
        body = outside.to_surface(setcolor=(*fill, 255), unsetcolor=(0, 0, 0, 0))
        body.blit(padded, (0, 0))
    else:
        # A dark piece: the font's own solid glyph (U+265A..) in the side's colour, whose cut-out
        # details show the light outline colour beneath, as the font designer drew black pieces.
        body = outside.to_surface(setcolor=(*outline, 255), unsetcolor=(0, 0, 0, 0))
        body.blit(f.render(chr(_OUTLINE_GLYPHS[glyph] + 6), True, fill), (1, 1))
    if sum(outline) > sum(fill):
        # Light details on a dark piece: a dark rim, else its edge would vanish on light squares.
        for part in outside.connected_components(big // 20):
            rim = part.outline()
            if len(rim) > 2:
                pygame.draw.lines(body, fill, True, rim, max(2, big // 40))
    box = ink_rect(body)
    square = pygame.Surface((big, big), pygame.SRCALPHA)
    square.blit(body, (big // 2 - box.centerx, big // 2 - box.centery))
    return pygame.transform.smoothscale(square, (size, size))


@lru_cache(maxsize=256)
def disc_sprite(letter: str, fill: theme.Colour, outline: theme.Colour, size: int) -> pygame.Surface:
    """A disc with a letter (fairy pieces, legend entries); drawn large and scaled down so its
    edge is smooth without pygame.gfxdraw."""
    big = size * _SUPERSAMPLE
    surf = pygame.Surface((big, big), pygame.SRCALPHA)
    radius = big * 0.44
    ring = max(_SUPERSAMPLE * 2, round(big * 0.06))
    pygame.draw.circle(surf, outline, (big / 2, big / 2), radius)
    pygame.draw.circle(surf, fill, (big / 2, big / 2), radius - ring)
    if letter:
        f = theme.font(round(big * 0.5), bold=True)
        text = f.render(letter, True, outline)
        inner = 2 * (radius - ring) * 0.8
        if text.get_width() > inner:
            text = pygame.transform.smoothscale(
                text, (int(inner), max(1, int(text.get_height() * inner / text.get_width()))))
        ink = ink_rect(text)
        surf.blit(text, (big / 2 - ink.centerx, big / 2 - ink.centery))
    return pygame.transform.smoothscale(surf, (size, size))


def ink_rect(surface: pygame.Surface) -> pygame.Rect:
    """The box of a rendered text's visible pixels (its line box includes descent space)."""
    # pygame's stub types this as one Rect; it is a list of them
    rects = cast(list[pygame.Rect], pygame.mask.from_surface(surface, 40).get_bounding_rects())
    return rects[0].unionall(rects[1:]) if rects else surface.get_rect()
