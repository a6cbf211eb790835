"""Checking an exported game: its shape, its rolls against the seed, and its replay.

``verify`` answers one question for anyone holding an export: is every roll the one
the committed seed gives, and does the log replay to the recorded states? The first
tampered roll is reported with its position in the log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from umpire.engine.events import state_hash
from umpire.engine.game import ActionRecord, Game
from umpire.errors import DataFileError, VerifyError

if TYPE_CHECKING:
    from umpire.rules import RuleModule


class ExportGame(BaseModel):
    """The ``game`` object of an export."""

    model_config = ConfigDict(extra="forbid")
    name: str
    module: str
    source: str
    seed: str | None = None
    commitment: str | None = None
    revealed: bool = False
    ended: bool = False
    parent: str | None = None
    created: str
    actions: int = 0


class ExportAction(BaseModel):
    """One action of an export."""

    model_config = ConfigDict(extra="forbid")
    no: int
    name: str
    params: dict[str, Any]
    state_hash: str
    events: list[dict[str, Any]]


class Export(BaseModel):
    """A whole exported game (format ``umpire-game/1``)."""

    model_config = ConfigDict(extra="forbid")
    format: str
    game: ExportGame
    scenario: dict[str, Any]
    actions: list[ExportAction]


def parse_export(data: Mapping[str, Any], file: str | None = None) -> Export:
    """Validate an export's shape; errors name the first bad field."""
    from umpire.store.sqlite import EXPORT_FORMAT

    try:
        export = Export.model_validate(dict(data))
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise DataFileError(
            f"not an umpire game export: {where}: {err['msg']}", file=file
        ) from None
    if export.format != EXPORT_FORMAT:
        raise DataFileError(
            f"unknown export format '{export.format}' (want {EXPORT_FORMAT})", file=file
        )
    for i, action in enumerate(export.actions, 1):
        if action.no != i:
            raise DataFileError(
                f"action numbers must run 1, 2, 3...: found {action.no} at {i}", file=file
            )
        for event in action.events:
            if "kind" not in event:
                raise DataFileError(f"action {i}: an event has no kind", file=file)
    return export


def check_replay(
    module: RuleModule,
    scenario: Mapping[str, Any],
    records: Sequence[ActionRecord],
    file: str | None = None,
) -> None:
    """Replay the change events once, comparing the state hash after every action."""
    from umpire.engine.events import copy_state

    state = module.initial_state(copy_state(dict(scenario)))
    steps = Game.replay_steps(state, records)
    for no in range(1, len(records) + 1):
        try:
            record = next(steps)
        except Exception as exc:  # a corrupt change path in a foreign file
            raise VerifyError(f"action {no} does not replay: {exc}", file=file) from None
        if state_hash(state) != record.state_hash:
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
    notes: list[str] = field(default_factory=list)


def verify_export(data: Mapping[str, Any], file: str | None = None) -> VerifyReport:
    """Verify an export: seed against commitment, every die against the seed, replay.

    Raises :class:`VerifyError` at the first problem, naming its place in the log.
    """
    from umpire.dice import SeededSource
    from umpire.rules import get_module

    export = parse_export(data, file=file)
    game = export.game
    module = get_module(game.module)
    records = [ActionRecord.from_json(a.model_dump()) for a in export.actions]
    report = VerifyReport(actions=len(records))
    seed: int | None = None
    if game.source == "committed":
        if game.seed is None:
            report.notes.append("the committed seed is not revealed yet: rolls not checked")
        else:
            digest = hashlib.sha256(game.seed.encode()).hexdigest()
            if digest != game.commitment:
                raise VerifyError(
                    f"the revealed seed does not match the commitment {game.commitment}", file=file
                )
            seed = int(game.seed)
    elif game.source == "seeded" and game.seed is not None:
        seed = int(game.seed)
    else:
        report.notes.append(f"dice source '{game.source}' has no seed: rolls not checked")

    position = 0
    log_index = 0
    for record in records:
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
                for k, face in enumerate(faces):
                    if seed is not None:
                        want = SeededSource.face_at(seed, pos + k, sides)
                        if face != want:
                            what = event.data.get("purpose", event.kind)
                            raise VerifyError(
                                f"tampered roll at log event {log_index} (action {record.no}, "
                                f"'{what}'), die {pos + k}: logged {face}, the seed gives {want}",
                                file=file,
                            )
                position += len(faces)
    report.dice = position
    report.rolls_checked = seed is not None
    check_replay(module, export.scenario, records, file=file)
    replayed = Game(module, dict(export.scenario), SeededSource(0), {}, records, None)
    try:
        replayed.reexecute()
    except VerifyError as exc:
        raise VerifyError(exc.message, file=file) from None
    return report
