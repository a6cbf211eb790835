"""The tactical engine: board, units, the cursor through a turn's steps, saves, replay.

It knows no rule module: the rules of a battle are a composition of roles (sequence,
combat, status, events) that the scenario names (``roles.py``, ``compose.py``).
"""
