"""Skill levels 0-20 (UCI ``Skill Level``): 20 searches to its limits; below, the depth is capped,
captures are followed less deep and the root moves' scores get noise, so a beginner can beat
level 0 (one ply, no recapture seen, +-400 cp) while the higher levels play properly."""

from __future__ import annotations

MAX_SKILL = 20
#: Captures followed at most this deep beyond the nominal depth (at full skill).
QUIESCENCE_PLIES = 6


def skill_depth(skill: int) -> int | None:
    """The depth cap of a skill level (None: no cap)."""
    return None if skill >= MAX_SKILL else 1 + skill // 4


def skill_quiescence(skill: int) -> int:
    """Capture plies followed beyond the depth at a skill level: the lowest levels do not see a
    recapture coming, as a beginner does not."""
    return QUIESCENCE_PLIES if skill >= MAX_SKILL else min(QUIESCENCE_PLIES, skill // 2)


def skill_noise(skill: int) -> int:
    """The spread, in centipawns, of the noise added to root moves' scores at a skill level."""
    return max(0, MAX_SKILL - skill) * 20
