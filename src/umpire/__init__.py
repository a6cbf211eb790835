"""Umpire: a computer umpire for American Civil War tabletop wargames.

The package is split into dice, roll tables, an engine with decisions and an event
log, SQLite saves, rule modules (one per seed text), and the command line.
"""

__version__ = "0.1.0"
