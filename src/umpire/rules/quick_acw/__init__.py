"""Quick ACW miniatures rules (seed 002, MWAN #101): the first complete tactical rule set.

Rules are data (``data/rules.toml``, ``data/labels.toml``) plus small pure functions
(``rules.py``, ``odds.py``); ``steps.py`` gives the engine the seed's steps, and
``roles.py`` offers them as the ``quick-acw`` sequence, combat and status roles.
"""
