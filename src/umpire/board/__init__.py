"""Tabletop geometry in inches: unit bases, terrain, line of sight, distances."""

from umpire.board.geometry import corners, distances, overlaps, segments_hit_boxes
from umpire.board.terrain import KINDS, Board, Feature

__all__ = ["KINDS", "Board", "Feature", "corners", "distances", "overlaps", "segments_hit_boxes"]
