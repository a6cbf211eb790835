"""Luck in the lab (issue 24): how much the dice alone decide, read from replayed battles.

The batch simulator keeps no luck tallies, but every battle of a run is reproducible from
its seed (``battle_seed``): the scalar engine plays the same battle die for die
(``tests/test_lab_agreement.py``). So the report's luck section replays a sample of each
arm's battles on the scalar engine with the tallies on (``Battle.luck``), checks that each
replay reaches the run's record, and reads each side's luck (:func:`side_luck`).

The after-action report's "with average dice" line (:func:`average_dice`) plays fresh
battles from a saved battle's start with the tallies on and keeps those in which both
sides' dice ran near average (:data:`AVERAGE_BAND`).

Readings (docs/lab.md, docs/aar.md):

- ``luck_side``: a side's luck in one battle is the mean of the mid-rank percentiles
  (``umpire.dice.luck.Luck.percentile``) of its kinds of score (fire hits, tests passed,
  melee dice, ...), each weighted by its rolls: one number on the percentile scale (50 is
  average dice) for scores of different sizes. Counts that are neither good nor bad for a
  side (``events ...``) and tallies of no army ("both", "table") are left out. A side
  with no tallied roll has luck None. Its dice "ran above their expectation" when its luck
  is above 50.
- ``average_dice``: a battle was played "with average dice" when each side's luck lies in
  :data:`AVERAGE_BAND` (35 to 65, inclusive: the middle 30% of the scale).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from umpire.dice.luck import Tally, side_luck
from umpire.errors import UmpireError
from umpire.lab import wilson
from umpire.lab.play import Record
from umpire.sides import SIDES

if TYPE_CHECKING:
    from umpire.battle.run import Result
    from umpire.lab.results import Run
    from umpire.store.sqlite import Store

__all__ = [
    "AVERAGE_BAND",
    "LUCK_SAMPLE",
    "ArmLuck",
    "AverageDice",
    "average_dice",
    "average_line",
    "lucky_battle",
    "run_luck",
    "side_luck",
]

LUCK_SAMPLE = 200
"""Battles of each arm the lab report replays for its luck section (``umpire report
--luck N``)."""

AVERAGE_BAND = (35.0, 65.0)
"""Reading ``average_dice``: each side's luck (:func:`side_luck`) within this band."""

AVERAGE_N = 400
"""Battles ``umpire aar`` plays from the start for the "with average dice" line."""


def lucky_battle(
    seed: int,
    policies: Mapping[str, Any],
    *,
    scen: Any = None,
    state: Mapping[str, Any] | None = None,
) -> tuple[Result, list[Tally]]:
    """One battle on ``SeededSource(seed)`` with the luck tallies on: from the scenario's
    opening (``scen``) or from an engine ``state``; the same dice and orders as without
    them (a tally never rolls)."""
    from umpire.battle.engine import Recorder
    from umpire.battle.game import battle_from
    from umpire.battle.run import new_battle
    from umpire.dice import SeededSource
    from umpire.lab.playon import play_to_end

    rec = Recorder(SeededSource(seed))
    b = new_battle(scen, rec) if state is None else battle_from(copy.deepcopy(dict(state)), rec)
    b.luck = []
    return play_to_end(b, rec, seed, policies), list(b.luck)


def _policies(seed: int, players: Mapping[str, str]) -> dict[str, Any]:
    """The policies a lab battle of this seed plays with (as ``umpire.lab.play`` makes them)."""
    from umpire.ai import make_policy

    return {side: make_policy(players.get(side, "ai"), seed) for side in SIDES}


def _same(rec: Record, res: Result) -> bool:
    """The replay reached the run's record: winner, turns, stands lost, dice drawn."""
    return (
        rec["winner"] == res.winner
        and int(rec["turns"]) == res.turns
        and all(int(rec["losses"][s]) == int(res.losses.get(s, 0)) for s in SIDES)
        and int(rec["dice"]) == len(res.faces)
    )


@dataclass(slots=True)
class ArmLuck:
    """One arm's luck: the battles replayed with their sides' luck, and what was skipped."""

    label: str
    battles: int
    """The arm's battles in the run."""
    replayed: list[tuple[Record, dict[str, float | None]]] = field(default_factory=list)
    """(the run's record, each side's luck) for each replayed battle that reached it."""
    differed: list[int] = field(default_factory=list)
    """Battle indices whose replay did not reach the run's record (left out)."""
    failed: str = ""
    """Why the arm could not be replayed at all (empty when it was)."""

    def lucky_won(self) -> tuple[int, int]:
        """(battles the luckier side won, decisive battles with a luckier side): draws and
        equal luck are left out."""
        won = n = 0
        for rec, lk in self.replayed:
            c, u = lk["confederate"], lk["union"]
            if c is None or u is None or c == u or rec["winner"] not in SIDES:
                continue
            n += 1
            won += rec["winner"] == ("confederate" if c > u else "union")
        return won, n

    def above_won(self, side: str) -> tuple[int, int, int, int]:
        """(battles ``side`` won when its dice ran above their expectation, battles they ran
        above, won when they ran below, battles they ran below); exactly 50 is neither."""
        wa = na = wb = nb = 0
        for rec, lk in self.replayed:
            x = lk[side]
            if x is None or x == 50:
                continue
            if x > 50:
                na += 1
                wa += rec["winner"] == side
            else:
                nb += 1
                wb += rec["winner"] == side
        return wa, na, wb, nb

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (for tests and ``--json`` readers)."""
        won, n = self.lucky_won()
        return {
            "label": self.label,
            "battles": self.battles,
            "replayed": len(self.replayed),
            "differed": list(self.differed),
            "failed": self.failed,
            "luckier_won": {"wins": won, "battles": n, "ci95": list(wilson(won, n))},
            "luck": [
                {"i": rec["i"], "winner": rec["winner"], **{s: lk[s] for s in SIDES}}
                for rec, lk in self.replayed
            ],
        }


def _arm_overlay(arm: Mapping[str, Any]) -> Any:
    """The stored arm's data overlay (``Arm.to_json``'s ``data`` and ``rules_data``)."""
    from umpire.rules.data import Overlay

    return Overlay(
        tuple((str(a), str(b)) for a, b in arm.get("rules_data") or []),
        tuple(
            (str(d), str(f), tuple(str(k).split(".")), v) for d, f, k, v in arm.get("data") or []
        ),
    )


def _run_scenario(run: Run) -> Any:
    """The run's scenario, as ``umpire simulate`` was given it (its replay command names
    it), else by the stored name."""
    from umpire.battle.scenario import load_scenario

    words = str(run.config.get("replay", "")).split()
    for name in ([words[2]] if len(words) > 2 and words[:2] == ["umpire", "battle"] else []) + [
        run.scenario
    ]:
        try:
            return load_scenario(name)
        except Exception:  # a file since moved: the stored name next
            continue
    raise UmpireError(f"the scenario '{run.scenario}' of lab run {run.id} is not found")


def run_luck(
    run: Run, sample: int = LUCK_SAMPLE, progress: Callable[[int], None] | None = None
) -> list[ArmLuck]:
    """Each arm's luck: its first ``sample`` battles (by index) replayed on the scalar
    engine with the tallies on, under the arm's rules and the run's players; ``progress``
    is told how many battles are done in all."""
    from umpire.lab.arms import Arm
    from umpire.rules.data import Overlay, install

    base = _run_scenario(run)
    players = {str(k): str(v) for k, v in (run.config.get("players") or {}).items()}
    out: list[ArmLuck] = []
    done = 0
    try:
        for k, arm in enumerate(run.arms):
            recs = run.battles[k][:sample] if k < len(run.battles) else []
            res = ArmLuck(str(arm.get("label", f"arm {k}")), len(run.battles[k]))
            out.append(res)
            rules = arm.get("rules")
            scen = Arm("", rules=tuple(rules.items()) if rules else None).scenario(base)
            install(_arm_overlay(arm))
            for rec in recs:
                seed = int(rec["seed"])
                try:
                    got, tallies = lucky_battle(seed, _policies(seed, players), scen=scen)
                except Exception as exc:  # a variant that fails here failed in the run too
                    res.failed = f"{type(exc).__name__}: {exc}"
                    break
                if _same(rec, got):
                    res.replayed.append((rec, side_luck(tallies)))
                else:
                    res.differed.append(int(rec["i"]))
                done += 1
                if progress is not None:
                    progress(done)
    finally:
        install(Overlay())
    return out


# -- the after-action report's "with average dice" ---------------------------------------


@dataclass(slots=True)
class AverageDice:
    """Battles played from a saved battle's start with fresh dice: how many, how many of
    them with average dice (:data:`AVERAGE_BAND`) and who won those."""

    winner: str
    """The saved battle's winner (a side or ``draw``)."""
    n: int
    seed: int
    players: dict[str, str]
    average: list[str] = field(default_factory=list)
    """The winners of the battles with average dice, in battle order."""
    lucks: list[tuple[str, dict[str, float | None]]] = field(default_factory=list)
    """Every battle's winner and each side's luck (for tests and charts)."""

    def share(self) -> tuple[int, int]:
        """(battles with average dice the saved game's winner won, battles with average
        dice)."""
        return sum(1 for w in self.average if w == self.winner), len(self.average)

    def sentence(self) -> str:
        """The report's line: "with average dice the Union wins 38% of 142 such battles
        (95% interval ...): the result would likely have been different"."""
        lo, hi = AVERAGE_BAND
        won, n = self.share()
        band = f"each side's luck between the {lo:.0f}th and {hi:.0f}th percentile"
        if n == 0:
            return (
                f"With average dice: none of {self.n} battles played from the start had "
                f"{band}; play more (umpire aar --average N)"
            )
        if self.winner not in SIDES:
            draws = sum(1 for w in self.average if w == "draw")
            return (
                f"With average dice ({band}) {draws} of {n} such battles of {self.n} played "
                f"from the start were drawn, as this one was"
            )
        a, b = wilson(won, n)
        rate = won / n
        if rate == 0.5:
            verdict = "it could have gone either way"
        else:
            same = "the same" if rate > 0.5 else "different"
            verdict = f"the result would likely have been {same}"
            if a <= 0.5 <= b:
                verdict += " (not clearly: the 95% interval spans 50%)"
        return (
            f"With average dice ({band}) the {self.winner.title()} wins {100 * rate:.0f}% of "
            f"{n} such battles (95% interval {100 * a:.0f}%-{100 * b:.0f}%; {n} of {self.n} "
            f"played from the start on fresh dice): {verdict}"
        )


def _saved_players(store: Store, name: str) -> dict[str, str]:
    """The policies that played each side as the saved game records them (``players``
    records, the last kept); a person, or a side not recorded, is the shipped AI."""
    found: dict[str, str] = {}
    for rec in store.table_records(name):
        if rec.get("kind") == "players" and isinstance(rec.get("players"), dict):
            found = {str(k): str(v) for k, v in rec["players"].items()}
    known = ("easy", "normal", "hard", "ai", "random")
    return {s: k for s, k in found.items() if s in SIDES and k in known}


def average_seed(name: str) -> int:
    """The seed of the "with average dice" battles: fixed by the game's name (a report is
    the same when built again), never the game's own seed."""
    import hashlib

    digest = hashlib.sha256(f"umpire-average/{name}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def average_dice(
    store: Store,
    name: str,
    n: int = AVERAGE_N,
    *,
    progress: Callable[[int], None] | None = None,
) -> AverageDice | None:
    """Play ``n`` battles from the saved battle ``name``'s start (``battle_seed(average_seed
    (name), i)``, the policies it records, else the shipped AI) with the tallies on; None
    for a game that is not a finished battle."""
    from umpire.lab import battle_seed
    from umpire.lab.playon import BATTLE_MODULES, position_of
    from umpire.rules import get_module

    info = store.info(name)
    if info.module not in BATTLE_MODULES:
        return None
    module, scenario, records = get_module(info.module), store.scenario(name), store.records(name)
    end = position_of(name, module, scenario, records, len(records), allow_over=True)
    if not end.over:
        return None
    start = position_of(name, module, scenario, records, 0)
    players = _saved_players(store, name)
    seed = average_seed(name)
    out = AverageDice(str(end.state["battle"]["winner"]), n, seed, players)
    lo, hi = AVERAGE_BAND
    for i in range(n):
        s = battle_seed(seed, i)
        res, tallies = lucky_battle(s, _policies(s, players), state=start.state)
        lk = side_luck(tallies)
        out.lucks.append((res.winner, lk))
        if all(lk[x] is not None and lo <= float(lk[x] or 0) <= hi for x in SIDES):
            out.average.append(res.winner)
        if progress is not None:
            progress(i + 1)
    return out


def average_line(
    store: Store,
    name: str,
    n: int = AVERAGE_N,
    *,
    progress: Callable[[int], None] | None = None,
) -> str | None:
    """The after-action report's "with average dice" line (``AverageFn``): None for a game
    that is not a battle, a line saying so for one that is not over."""
    from umpire.lab.playon import BATTLE_MODULES

    if store.info(name).module not in BATTLE_MODULES:
        return None
    got = average_dice(store, name, n, progress=progress)
    if got is None:
        return "With average dice: not measured (the battle is not over)"
    return got.sentence()
