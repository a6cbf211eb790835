"""Seed 003 fog (XII.D) and smoke (XII.E; rules-notes: in E.2 'fog' means smoke)."""

from __future__ import annotations

from fractions import Fraction

FOG_MAX = 6


def fog_thickness(d6: int) -> int:
    """XII.D.1: 'the resulting number is the thickness of the fog with 6 being the thickest'."""
    return max(0, min(FOG_MAX, d6))


def thins(d10: int) -> bool:
    """XII.D.2 / E.2: 'Even reduces the ... number by 1.'"""
    return d10 % 2 == 0


def next_level(level: int, d10: int) -> int:
    """The level after a turn start's roll (never below 0)."""
    return max(0, level - 1) if thins(d10) else level


def fog_deductions(level: int) -> tuple[int, float]:
    """Default ``fog_above_hills``: the thickness off fire (stick points) and movement (inches)."""
    return level, float(level)


def smoke_level(firer_markers: int, target_markers: int) -> int:
    """Rules-notes 003: markers on the firer plus those on the target."""
    return firer_markers + target_markers


def smoke_deduction(level: int) -> int:
    """Default: one point off the stick per smoke level."""
    return level


def level_odds(level: int, turns: int) -> dict[int, Fraction]:
    """Exact distribution of a fog or smoke level after ``turns`` turn starts."""
    dist = {level: Fraction(1)}
    for _ in range(turns):
        out: dict[int, Fraction] = {}
        for lv, p in dist.items():
            for face in range(10):
                n = next_level(lv, face)
                out[n] = out.get(n, Fraction(0)) + p / 10
        dist = out
    return dist
