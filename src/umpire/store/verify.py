"""Checking an exported game: its shape, its rolls against the seed, and its replay.

``verify`` answers one question for anyone holding an export: is every roll the one
the committed seed gives (for joint dice: the seed, the sides' values and each action's
entropy), and does the log replay to the recorded states? The first tampered roll is
reported with its position in the log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from umpire.engine.game import ActionLog, ActionRecord, Game
from umpire.errors import DataFileError, VerifyError
from umpire.store.shape import ExportShape, check_shape, first_error

if TYPE_CHECKING:
    from umpire.rules import RuleModule


Export = ExportShape
"""A whole exported game, its shape checked (:mod:`umpire.store.shape`)."""


def parse_export(data: Mapping[str, Any], file: str | None = None) -> Export:
    """Validate an export's whole shape; errors name the first bad field. Then the format
    and the numbering of its actions."""
    from umpire.store.sqlite import EXPORT_FORMAT

    export = check_shape(data if isinstance(data, dict) else dict(data), file=file)
    if export.format != EXPORT_FORMAT:
        raise DataFileError(
            f"format: unknown export format {export.format[:40]!r} (want {EXPORT_FORMAT})",
            file=file,
        )
    for i, action in enumerate(export.actions, 1):
        if action.no != i:
            raise DataFileError(
                f"actions[{i - 1}].no: action numbers must run 1, 2, 3...: found {action.no} "
                f"at {i}",
                file=file,
            )
    return export


def records_of(export: Export) -> list[ActionRecord]:
    """The export's actions as records, from the file's own JSON (shape checked)."""
    return [ActionRecord.from_json(a) for a in export.raw_actions]


def module_of(export: Export, file: str | None = None) -> RuleModule:
    """The rule module the export names (``game.module``), or a one-line refusal."""
    from umpire.errors import UmpireError
    from umpire.rules import get_module

    try:
        return get_module(export.game.module)
    except UmpireError as exc:
        raise DataFileError(f"game.module: {exc.message}", file=file) from None


def start_state(module: RuleModule, scenario: Mapping[str, Any], file: str | None = None) -> Any:
    """The module's state before any action, from a foreign scenario: a scenario the module
    cannot read is refused in one line (the module's own words where it has them)."""
    from umpire.engine.events import copy_state
    from umpire.errors import UmpireError

    try:
        return copy_state(module.initial_state(copy_state(dict(scenario))))
    except UmpireError as exc:
        raise DataFileError(f"scenario: {exc}", file=file) from None
    except ValidationError as exc:
        raise DataFileError(
            f"scenario.{first_error(exc)} (not a {module.id} scenario)", file=file
        ) from None
    except Exception as exc:  # module code on a foreign scenario: any failure is the file's
        raise DataFileError(
            f"scenario: not a {module.id} scenario ({type(exc).__name__}: "
            f"{' '.join(str(exc).split())[:80]})",
            file=file,
        ) from None


def check_replay(
    module: RuleModule,
    scenario: Mapping[str, Any],
    records: Sequence[ActionRecord],
    file: str | None = None,
) -> None:
    """Replay the change events once, comparing the state hash after every action.

    The hash is kept up to date change by change (:class:`StateHasher`), not recomputed
    from the whole state each time, so a long game costs time in its length.
    """
    from umpire.engine.statehash import StateHasher

    # A JSON round trip first: the state shares no object between two places, as in play.
    hasher = StateHasher(start_state(module, scenario, file=file))
    steps = Game.replay_steps(hasher.state, records, hasher.apply)
    for no in range(1, len(records) + 1):
        try:
            record = next(steps)
            digest = hasher.hexdigest()
        except Exception as exc:  # a change a foreign file makes that no state can take
            raise VerifyError(
                f"action {no} does not replay: {str(exc).splitlines()[0][:160]}", file=file
            ) from None
        if digest != record.state_hash:
            raise VerifyError(
                f"action {record.no} ({record.name}): the replayed state "
                f"differs from the recorded one",
                file=file,
            )


@dataclass
class VerifyReport:
    """What ``verify`` found: counts, and whether the rolls could be checked."""

    actions: int = 0
    events: int = 0
    dice: int = 0
    rolls_checked: bool = False
    typed: int = 0
    notes: list[str] = field(default_factory=list)
    identity: str = ""
    head: str = ""
    chained: bool = False
    parts: list[str] = field(default_factory=list)
    """Which dice were checked against what (a fork: the parent's part and its own)."""
    records: list[str] = field(default_factory=list)
    """The records kept beside the log (undos, real dice switched on), one line each."""

    @property
    def checked(self) -> int:
        """How many dice were checked against the seed (typed dice never are)."""
        return self.dice - self.typed if self.rolls_checked else 0

    def dice_line(self) -> str:
        """What the dice check proved, counted: how many dice were checked against the seed
        and how many were typed by hand (their faces are only as honest as who typed them)."""
        if not self.rolls_checked:
            return f"{self.dice} dice, none checked (no seed to check them against)"
        if not self.typed:
            return f"all {self.dice} dice checked: every die matches the seed"
        return (
            f"{self.checked} of {self.dice} dice checked against the seed and matching; "
            f"{self.typed} typed by hand at the table, NOT checked (trust them as you trust "
            f"whoever typed them)"
        )


def check_summary(export: Export, file: str | None = None) -> None:
    """Every count and flag the export's game record states must agree with its log."""
    game = export.game
    n = len(export.actions)
    if game.actions != n:
        raise VerifyError(
            f"the export's game record says {game.actions} actions but its log holds {n}: "
            f"actions were added or removed",
            file=file,
        )
    if game.ended != game.revealed:
        raise VerifyError(
            "the game record says "
            + ("ended but not revealed" if game.ended else "revealed but not ended")
            + ": a game reveals its seed when, and only when, it ends",
            file=file,
        )
    if game.source in ("committed", "joint"):
        if game.commitment is None:
            raise VerifyError(f"a {game.source} game without its commitment", file=file)
        if game.revealed != (game.seed is not None):
            raise VerifyError("the game record's seed and its 'revealed' flag disagree", file=file)
    check_joint_record(export, file=file)


def check_joint_record(export: Export, file: str | None = None) -> None:
    """A joint game has a joint record (and no other game has one) whose sides are well
    named, whose commitments are sha256 digests, and whose revealed values match them."""
    from umpire.dice import JointSource
    from umpire.errors import UmpireError

    joint = export.joint
    if export.game.source != "joint":
        if joint is not None:
            raise VerifyError(
                f"a '{export.game.source}' game with a joint record: only joint dice have one",
                file=file,
            )
        return
    if joint is None:
        raise VerifyError("a joint game without its joint record (the sides' values)", file=file)
    if any(s.contribution is not None and s.commitment is None for s in joint.sides):
        raise VerifyError(
            "the joint record reveals a value of a side that never committed", file=file
        )
    commitments = {s.side: s.commitment for s in joint.sides if s.commitment is not None}
    values = {s.side: s.contribution for s in joint.sides if s.contribution is not None}
    try:
        JointSource([s.side for s in joint.sides], 0, commitments=commitments)
    except UmpireError as exc:
        raise VerifyError(f"the joint record is malformed: {exc.message}", file=file) from None
    if values and len(commitments) < len(joint.sides):
        raise VerifyError("the joint record reveals values before every side committed", file=file)
    for s in joint.sides:
        if s.contribution is None or s.commitment is None:
            continue
        try:
            JointSource([s.side], 0, commitments={s.side: s.commitment}).contribute(
                s.side, s.contribution
            )
        except UmpireError as exc:
            raise VerifyError(f"the joint record: {exc.message}", file=file) from None


def check_chain(export: Export, report: VerifyReport, file: str | None = None) -> list[str]:
    """Recompute the hash chain; name the first action whose stated link departs from it."""
    from umpire.engine.chain import heads, identity

    game = export.game
    start = identity(game.module, export.scenario, game.source, game.commitment, game.fork)
    links = heads(start, export.raw_actions)
    report.identity = start
    report.head = links[-1] if links else start
    stated = [a.chain for a in export.actions]
    if game.identity is None and game.head is None and all(s is None for s in stated):
        report.notes.append(
            "this export carries no hash chain (made before chains); its head, computed "
            f"from its content, is {report.head}"
        )
        return links
    report.chained = True
    if game.identity != start:
        raise VerifyError(
            "the chain does not start from this game's module, scenario and dice: the log "
            "was moved onto another game, or the game record was changed",
            file=file,
        )
    for no, (said, real) in enumerate(zip(stated, links, strict=True), 1):
        if said != real:
            raise VerifyError(
                f"action {no}: the hash chain breaks here (this action, or one before it, "
                f"is not what was played)",
                file=file,
            )
    if game.head != report.head:
        raise VerifyError("the game record's head is not the chain's last link", file=file)
    return links


def check_head(links: list[str], start: str, kept: str, file: str | None = None) -> str:
    """Compare the log with a head a player kept (``HEX`` or ``HEX@N`` with the count).

    Returns a line for the report; raises VerifyError where the log departs from it.
    """
    hexpart, _, count = kept.strip().lower().partition("@")
    if len(hexpart) != 64 or any(c not in "0123456789abcdef" for c in hexpart):
        raise VerifyError(f"--head wants 64 hex digits, optionally @COUNT, not '{kept}'")
    try:
        n = int(count) if count else None
    except ValueError:
        raise VerifyError(f"--head count '{count}' is not a whole number") from None
    at = [start, *links]  # at[k] = the head after k actions
    total = len(links)
    if n is not None:
        if n > total:
            raise VerifyError(
                f"the log is shortened: it holds {total} actions, the head you kept is "
                f"after action {n}",
                file=file,
            )
        if at[n] != hexpart:
            raise VerifyError(
                f"the log departs from the one you kept at or before action {n} "
                f"(its head there is {at[n][:16]}..., yours {hexpart[:16]}...)",
                file=file,
            )
        if total > n:
            raise VerifyError(
                f"the log is extended: it matches your head after action {n}, then "
                f"{total - n} more action(s) follow, from action {n + 1}",
                file=file,
            )
        return f"the head after action {n} is the one you kept"
    if at[-1] == hexpart:
        return f"the head after its {total} actions is the one you kept"
    if hexpart in at:
        k = at.index(hexpart)
        raise VerifyError(
            f"the log is extended: it matches your head after action {k}, then "
            f"{total - k} more action(s) follow, from action {k + 1}",
            file=file,
        )
    raise VerifyError(
        "the log never reaches the head you kept: it was shortened, reordered or changed "
        "(give HEX@COUNT to learn where it departs)",
        file=file,
    )


def verify_export(
    data: Mapping[str, Any],
    file: str | None = None,
    *,
    head: str | None = None,
    parent: Mapping[str, Any] | None = None,
) -> VerifyReport:
    """Verify an export: its summary, seed against commitment, every die against the seed,
    the replay, the hash chain, and (``head``: ``HEX`` or ``HEX@COUNT``) a head a player kept.

    A fork with dice of its own checks its own dice against its own seed; the dice before
    the fork are the parent's, checked with the parent's export (``parent``) when given.
    The records kept beside the log (undos with their withdrawn actions, real dice switched
    on) are listed in ``records``, the withdrawn dice checked against the seed.
    Raises :class:`VerifyError` at the first problem, naming its place in the log.
    """
    from umpire.dice import DiceSource, JointSource, PhysicalSource, SeededSource, check_entropy
    from umpire.errors import UmpireError

    export = parse_export(data, file=file)
    check_summary(export, file=file)
    game = export.game
    module = module_of(export, file=file)
    records = records_of(export)
    report = VerifyReport(actions=len(records))
    seed: int | None = None
    values: dict[str, str] = {}
    if game.source in ("committed", "joint"):
        if game.seed is None:
            whose = "committed seed" if game.source == "committed" else "host's joint-dice seed"
            report.notes.append(f"the {whose} is not revealed yet: rolls not checked")
        else:
            digest = hashlib.sha256(game.seed.encode()).hexdigest()
            if digest != game.commitment:
                raise VerifyError(
                    f"the revealed seed does not match the commitment {game.commitment}", file=file
                )
            if not (
                game.seed.isascii() and game.seed.isdigit() and str(int(game.seed)) == game.seed
            ):
                raise VerifyError(
                    f"the revealed seed {game.seed[:40]!r} is not a whole number in decimal",
                    file=file,
                )
            seed = int(game.seed)
        if export.joint is not None:
            values = {
                s.side: s.contribution for s in export.joint.sides if s.contribution is not None
            }
            if len(values) < len(export.joint.sides):
                values = {}  # not ready: no joint die can have been rolled (checked below)
    elif game.source == "seeded" and game.seed is not None:
        seed = int(game.seed)
    else:
        report.notes.append(f"dice source '{game.source}' has no seed: rolls not checked")

    joint = game.source == "joint"
    fork = game.fork
    own_from = 0  # dice before this position are the parent's (a fork with dice of its own)
    if fork is not None and not fork.get("keeps_dice"):
        own_from = int(fork.get("dice", 0))
    position = 0
    log_index = 0
    for record in records:
        entropy: str | None = None
        if not joint and record.events and "entropy" in record.events[0].data:
            raise VerifyError(
                f"action {record.no} ({record.name}) states an entropy, but only joint dice "
                f"take one",
                file=file,
            )
        if joint and _has_dice(record):
            if not values:
                raise VerifyError(
                    f"action {record.no} ({record.name}) rolled joint dice before every side "
                    f"revealed its value",
                    file=file,
                )
            raw = record.events[0].data.get("entropy") if record.events else None
            if raw is None:
                raise VerifyError(
                    f"action {record.no} ({record.name}) rolled joint dice without the "
                    f"browser's entropy",
                    file=file,
                )
            try:
                entropy = check_entropy(raw)
            except UmpireError as exc:
                raise VerifyError(f"action {record.no}: {exc.message}", file=file) from None
        for event in record.events:
            log_index += 1
            report.events += 1
            for draw in event.data.get("draws", []):
                pos, sides, faces = int(draw[0]), int(draw[1]), list(draw[2])
                if pos != position:
                    raise VerifyError(
                        f"log event {log_index} (action {record.no}, {event.kind}): dice "
                        f"position {pos}, expected {position}",
                        file=file,
                    )
                if _is_typed(draw):
                    report.typed += len(faces)
                for k, face in enumerate(faces):
                    if seed is not None and not _is_typed(draw) and pos + k >= own_from:
                        if entropy is not None:
                            want = JointSource.face_at(seed, values, entropy, pos + k, sides)
                            giver = "the seed, the sides' values and the action's entropy give"
                        else:
                            want = SeededSource.face_at(seed, pos + k, sides)
                            giver = "the seed gives"
                        if face != want:
                            what = event.data.get("purpose", event.kind)
                            raise VerifyError(
                                f"tampered roll at log event {log_index} (action {record.no}, "
                                f"'{what}'), die {pos + k}: logged {face}, {giver} {want}",
                                file=file,
                            )
                position += len(faces)
    report.dice = position
    report.rolls_checked = seed is not None
    own = "this game's own seed" if fork is not None else "the game's seed"
    if own_from and fork is not None:
        report.parts.append(
            _parent_part(export, fork, own_from, parent, file)
            if parent is not None
            else f"dice 0-{own_from - 1} (actions 1-{fork.get('at')}) are the parent's "
            f"'{fork.get('parent')}' (its chain head at action {fork.get('at')}: "
            f"{fork.get('head')}): not checked here; verify with the parent's export once "
            f"the parent has ended"
        )
    elif fork is not None:
        report.parts.append(
            f"a fork of '{fork.get('parent')}' at action {fork.get('at')} that keeps the "
            f"parent's dice: every die is checked against the parent's seed"
        )
    if position > own_from:
        span = f"dice {own_from}-{position - 1}"
        report.parts.append(
            f"{span}: checked against {own}"
            if seed is not None
            else f"{span}: not checked yet ({own} is not revealed)"
        )
    report.records = _records(export, seed, values, own_from, file)
    if report.typed:
        report.notes.append(
            f"{report.typed} dice were real dice typed at the table: the seed cannot vouch "
            f"for their faces (docs/verification.md, 'Typed dice')"
        )
    check_replay(module, export.scenario, records, file=file)
    # Re-execution reads every face from the log; the source only says how picks were made
    # (a game at a table with real dice picks with one d6 or a cup).
    kind: DiceSource = SeededSource(0)
    if export.game.source == "physical":
        kind = PhysicalSource(_no_dice)
    replayed = Game(module, dict(export.scenario), kind, {}, ActionLog(records), None)
    try:
        # check_replay has matched every recorded hash, and re-execution must give the very
        # change events logged (or, for an action in the earlier form, hashes that one
        # state itself), so it need not hash the states a second time.
        report.notes.extend(_wording(replayed.reexecute(hashes=False)))
    except VerifyError as exc:
        raise VerifyError(exc.message, file=file) from None
    links = check_chain(export, report, file=file)
    if head is not None:
        report.notes.append(check_head(links, report.identity, head, file=file))
    return report


def _parent_part(
    export: Export,
    fork: Mapping[str, Any],
    own_from: int,
    parent: Mapping[str, Any],
    file: str | None,
) -> str:
    """Check the dice before a fork with its parent's export: the parent is the one the fork
    names, its chain passes through the head the fork names, its first actions are the
    fork's, and its own verify passes. Returns the report's line for that part."""
    from umpire.engine.chain import heads, identity

    p = parse_export(parent, file=file)
    name, at = str(fork.get("parent")), int(fork.get("at", 0))
    if p.game.name != name:
        raise VerifyError(f"the parent's export is game '{p.game.name}', not '{name}'", file=file)
    start = identity(p.game.module, p.scenario, p.game.source, p.game.commitment, p.game.fork)
    links = heads(start, p.raw_actions)
    if at > len(links) or ([start, *links][at] != fork.get("head")):
        raise VerifyError(
            f"the parent's chain does not pass through the head the fork names at action {at}",
            file=file,
        )
    pairs = zip(export.actions[:at], export.raw_actions[:at], p.raw_actions[:at], strict=True)
    for mine, raw_mine, raw_theirs in pairs:
        if {k: v for k, v in raw_mine.items() if k != "chain"} != {
            k: v for k, v in raw_theirs.items() if k != "chain"
        }:
            raise VerifyError(
                f"action {mine.no} of the fork is not the parent's action {mine.no}", file=file
            )
    sub = verify_export(parent, file=file)
    if not sub.rolls_checked:
        return (
            f"dice 0-{own_from - 1} (actions 1-{at}): the parent '{name}' matches, but its "
            f"seed is not revealed yet: verify again once the parent has ended"
        )
    return (
        f"dice 0-{own_from - 1} (actions 1-{at}): checked with the parent '{name}''s export "
        f"against the parent's seed"
    )


def _records(
    export: Export, seed: int | None, values: dict[str, str], own_from: int, file: str | None
) -> list[str]:
    """One line per record beside the log. An undo's withdrawn actions must chain from the
    head it names to the head it names, and their dice (this game's own) must be the seed's."""
    from umpire.dice import JointSource, SeededSource
    from umpire.engine.chain import heads

    fork = export.game.fork or {}
    inherited = int(fork.get("records", 0)) if not fork.get("keeps_dice") else 0
    out: list[str] = []
    for i, model in enumerate(export.records or []):
        rec = model.model_dump()
        kind, at = rec.get("kind"), rec.get("at")
        if kind == "real_dice":
            switched = "on" if rec.get("on") else "off"
            agreed = f", {rec['agreed']} agreed" if rec.get("agreed") else ""
            out.append(f"at action {at}: {rec.get('side')} switched real dice {switched}{agreed}")
            continue
        if kind in ("undo_refused", "real_dice_refused"):
            what = "an undo" if kind == "undo_refused" else "real dice"
            out.append(
                f"at action {at}: {rec.get('by')} asked for {what}; {rec.get('refused')} refused"
            )
            continue
        if kind != "undo":
            out.append(f"at action {at}: {kind}")
            continue
        withdrawn = rec.get("withdrawn") or []
        try:
            actions = [ActionRecord.from_json(a) for a in withdrawn]
            links = heads(str(rec["from_head"]), (a.to_json() for a in actions))
        except (KeyError, TypeError, ValueError) as exc:
            raise VerifyError(f"record {i + 1} (an undo) is malformed ({exc})", file=file) from None
        if (links[-1] if links else rec["from_head"]) != rec.get("head"):
            raise VerifyError(
                f"record {i + 1} (an undo at action {at}): its withdrawn actions do not chain "
                f"to the head it names",
                file=file,
            )
        faces: list[str] = []
        for a in actions:
            for e in a.events:
                for d in e.data.get("draws", []):
                    pos, sides, got = int(d[0]), int(d[1]), list(d[2])
                    faces.append(f"{got}{' typed' if _is_typed(d) else ''}")
                    if seed is None or _is_typed(d) or i < inherited or pos < own_from:
                        continue
                    for k, face in enumerate(got):
                        if a.entropy is not None and values:
                            want = JointSource.face_at(seed, values, a.entropy, pos + k, sides)
                        else:
                            want = SeededSource.face_at(seed, pos + k, sides)
                        if face != want:
                            raise VerifyError(
                                f"record {i + 1} (an undo at action {at}): withdrawn action "
                                f"{a.no}, die {pos + k}: logged {face}, the seed gives {want}",
                                file=file,
                            )
        agreed = (
            f"{rec['agreed']} agreed"
            if rec.get("agreed")
            else f"no consent needed ({rec.get('why', 'free')})"
        )
        span = f"{actions[0].no}-{actions[-1].no}" if actions else "none"
        names = ", ".join(f"{a.no} {a.name}" + (f" by {a.by}" if a.by else "") for a in actions)
        out.append(
            f"at action {at}: undo asked by {rec.get('by')}, {agreed}; withdrew actions {span} "
            f"({names}); their faces: {', '.join(faces) or 'none'}"
        )
    return out


def _has_dice(record: ActionRecord) -> bool:
    """The action drew at least one die (or a random pick) from the game's own dice (faces of
    real dice typed at the table are marked ``typed`` and do not count)."""
    return any(d[2] and not _is_typed(d) for e in record.events for d in e.data.get("draws", []))


def _is_typed(draw: list[Any]) -> bool:
    """A draw of real dice typed at the table into a game with its own dice."""
    return len(draw) > 3 and draw[3] == "typed"


def _no_dice(n: int, sides: int, purpose: str) -> str:
    """Re-execution never asks the table for dice: every face is in the log."""
    raise VerifyError(f"the log lacks faces for {purpose or 'a roll'}")


def _wording(notes: list[str]) -> list[str]:
    """At most three wording notes, then how many more (a long game may have hundreds);
    re-execution's other notes (changes logged in an earlier form) after them."""
    words = [n for n in notes if "the wording of its log differs" in n]
    other = [n for n in notes if "the wording of its log differs" not in n]
    if len(words) <= 3:
        return words + other
    return [*words[:3], f"... and {len(words) - 3} more actions whose wording differs", *other]
