"""The conformance suite's player: seeded battles of a scenario checked after every step.

Every battle is played on the fast path with the policies named for each side, narrating,
with a :class:`~umpire.battle.invariants.Watch` on the battle: every invariant of every
module in the composition (and the engine's own) is checked after each step, and every
feature the modules name is counted. At the end the battle is replayed from its faces
and orders and must reach the identical state. A failure names the scenario, the seed,
the turn and step, the module's invariant and the seed section it cites.

``tests/test_conformance_suite.py`` runs it over every shipped composition in CI;
``benchmarks/conformance.py`` runs thousands of battles and reports the features that no
battle reached.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from umpire.battle.invariants import Tap, Violation, Watch, module_features
from umpire.battle.run import new_battle, replay, state_hash
from umpire.scenarios import Scenario

POLICIES = ("ai", "odds", "random")
"""``ai``: the composition's own AI (seed 002's scripted general where it fits, else the
odds AI); ``odds``: the odds AI on every composition; ``random``: legal orders at random."""


def policy(kind: str, seed: int) -> Any:
    """A policy of one of :data:`POLICIES`."""
    from umpire.ai import make_policy

    if kind == "odds":
        from umpire.ai.odds_ai import OddsAI

        return OddsAI()
    return make_policy(kind, seed)


@dataclass(slots=True)
class Checked:
    """What the suite found in one battle."""

    scenario: str
    seed: int
    players: tuple[str, str]
    violations: list[Violation]
    counts: Counter[str]
    steps: int
    winner: str
    turns: int

    def failures(self) -> list[str]:
        """One line per violation, naming the battle."""
        who = f"union={self.players[0]} confederate={self.players[1]}"
        return [f"{self.scenario} seed {self.seed} ({who}): {v}" for v in self.violations]


def check_battle(
    scen: Scenario,
    seed: int,
    players: tuple[str, str] = ("ai", "ai"),
    *,
    name: str = "",
    max_decisions: int = 50_000,
) -> Checked:
    """Play one battle (union and confederate policies ``players``) checking every step."""
    from umpire.dice import SeededSource

    pols = {"union": policy(players[0], seed), "confederate": policy(players[1], seed + 7919)}
    tap = Tap(SeededSource(seed))
    b = new_battle(scen, tap, narrate=True)
    watch = Watch(b.comp)
    b.watch = watch
    orders: list[list[Any]] = []
    for _ in range(max_decisions):
        req = b.next_request()
        if req is None:
            break
        order = pols[req.side].decide(b, req)
        b.apply(req, order)
        orders.append([req.actor, *order])
    st = b.state
    bad = list(watch.violations)
    if not st.over:
        bad.append(
            Violation("engine:ends", "engine", st.turn, st.seq, "", "the battle never ended")
        )
    again = replay(scen, tap.faces, orders)
    if state_hash(again.state.to_json()) != state_hash(st.to_json()):
        bad.append(
            Violation(
                "engine:replay",
                "engine",
                st.turn,
                st.seq,
                "",
                "the replay of the faces and orders reached another state",
            )
        )
    return Checked(
        name or scen.name,
        seed,
        players,
        bad,
        watch.counts,
        watch.steps,
        st.winner,
        st.turn,
    )


@dataclass(slots=True)
class Summary:
    """Many checked battles of one scenario: violations, feature counts, features unused."""

    scenario: str
    battles: int = 0
    steps: int = 0
    found: list[tuple[str, Violation]] = field(default_factory=list)
    """(the battle, in words; the violation) for every invariant broken."""
    counts: Counter[str] = field(default_factory=Counter)
    features: list[str] = field(default_factory=list)
    wins: Counter[str] = field(default_factory=Counter)

    def failures(self, *, but: frozenset[str] | set[str] = frozenset()) -> list[str]:
        """One line per violation (those of the invariants in ``but`` left out)."""
        return [f"{who}: {v}" for who, v in self.found if v.invariant not in but]

    def broken(self) -> set[str]:
        """The ids of the invariants broken in these battles."""
        return {v.invariant for _, v in self.found}

    def unused(self) -> list[str]:
        """The features no battle of the run used."""
        return [f for f in self.features if not self.counts.get(f)]

    def merge(self, o: Summary) -> None:
        """Count in another run of the same scenario (a worker's chunk)."""
        self.battles += o.battles
        self.steps += o.steps
        self.found.extend(o.found)
        self.counts.update(o.counts)
        self.wins.update(o.wins)
        self.features = self.features or o.features

    def add(self, c: Checked) -> None:
        """Count one battle in."""
        self.battles += 1
        self.steps += c.steps
        who = f"{c.scenario} seed {c.seed} (union={c.players[0]} confederate={c.players[1]})"
        self.found.extend((who, v) for v in c.violations)
        self.counts.update(c.counts)
        self.wins[c.winner] += 1


ROTATION: tuple[tuple[str, str], ...] = (("ai", "ai"), ("random", "odds"), ("odds", "random"))
"""The (union, confederate) players the seeds take in turn."""


def check_many(
    scen: Scenario,
    seeds: Iterable[int],
    players: Sequence[tuple[str, str]] = ROTATION,
    *,
    name: str = "",
    first: int | None = None,
) -> Summary:
    """Battles of ``scen`` for each seed; seed ``s`` takes the pair of players
    ``players[(s - first) % len(players)]`` (``first``: the first seed given), so a run cut
    into chunks plays the same battles."""
    from umpire.battle.setup import setup_for

    comp = setup_for(scen).comp
    out = Summary(name or scen.name)
    out.features = [f"{m}:{f.id}" for m, f in module_features(comp)]
    seeds = list(seeds)
    base = seeds[0] if first is None and seeds else (first or 0)
    for seed in seeds:
        pair = players[(seed - base) % len(players)]
        out.add(check_battle(scen, seed, pair, name=out.scenario))
    return out


__all__ = ["POLICIES", "ROTATION", "Checked", "Summary", "check_battle", "check_many", "policy"]
