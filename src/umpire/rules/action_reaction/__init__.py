"""Seed 003: Action/Reaction (parts 6 and 5 of a series) — the resolutions so far.

``artillery.py`` (XI: solid shot, shell and case bursts, first and consecutive fire as a
poker hand) and ``melee.py`` (XIV hand-to-hand, XIII and XV.2 reactions) are pure
functions over faces with exact odds; numbers in ``data/rules.toml``, defaults and
readings in ``data/labels.toml``. The roles (combat, the XII sequence, the status) and
their registration as ``action-reaction`` come next (docs/action_reaction.md).
"""
