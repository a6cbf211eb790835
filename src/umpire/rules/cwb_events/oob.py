"""The order of battle (oob.toml) turned into the JSON roster a game starts from.

Seed 000 needs armies, corps, divisions, brigades and batteries with their leaders (the
seed's unit style ``L/H/1``), ratings (our labelled defaults) and arrival times. A bad
file raises DataFileError naming the file and the line.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from umpire.errors import DataFileError, UnknownNameError
from umpire.sides import SIDES_UNION_FIRST

from .clock import parse_stamp

DATA = Path(__file__).resolve().parent / "data"
RATING_HELP = "brigade ratings are 'command-morale' such as '0-1'; others one number"


def load_raw(path: Path | None = None) -> tuple[dict[str, Any], str, str]:
    """Read an oob file: (data, file name, text). Built-in when ``path`` is None."""
    p = path or DATA / "oob.toml"
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(f"cannot read order of battle: {exc.strerror}", file=str(p)) from None
    try:
        return tomllib.loads(text), str(p), text
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"bad TOML: {exc}", file=str(p)) from None


def _line(text: str, needle: str) -> int | None:
    for no, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return no
    return None


class _Builder:
    def __init__(self, file: str, text: str):
        self.file, self.text = file, text
        self.leaders: dict[str, dict[str, Any]] = {}
        self.units: dict[str, dict[str, Any]] = {}
        self.corps: dict[str, dict[str, Any]] = {}
        self.divisions: dict[str, dict[str, Any]] = {}
        self.armies: dict[str, dict[str, Any]] = {}

    def fail(self, message: str, needle: str | None = None) -> DataFileError:
        line = _line(self.text, needle) if needle else None
        return DataFileError(message, file=self.file, line=line)

    def tables(self, value: Any, where: str) -> list[dict[str, Any]]:
        """The entries of an array of tables (``[[army]]``, a division's ``brigades``...),
        each checked to be a table: a bare value there is refused naming its place."""
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(f"{where}: must be a list of tables, not {type(value).__name__}")
        for i, entry in enumerate(value):
            if not isinstance(entry, dict):
                raise self.fail(f"{where}[{i}]: must be a table, not {type(entry).__name__}")
        return value

    def time(self, value: Any, where: str, default: int | None) -> int | None:
        if value is None:
            return default
        try:
            return parse_stamp(str(value))
        except UnknownNameError as exc:
            raise self.fail(f"{where}: {exc.message}", str(value)) from None

    def leader(self, spec: Any, side: str, post: str, command: str, arrives: int | None) -> str:
        if not isinstance(spec, dict) or not spec.get("id") or not spec.get("name"):
            raise self.fail(f"{command}: commander needs id and name", command.split("/")[0])
        lid = str(spec["id"])
        if lid in self.leaders:
            raise self.fail(f"duplicate leader id '{lid}'", f'id = "{lid}"')
        rating = spec.get("rating")
        if post == "brigade":
            ok = (
                isinstance(rating, str)
                and len(rating.split("-")) == 2
                and all(p.isdigit() for p in rating.split("-"))
            )
        else:
            ok = isinstance(rating, int) and not isinstance(rating, bool) and rating >= 0
        if not ok:
            raise self.fail(f"leader '{lid}': bad rating {rating!r} ({RATING_HELP})", f'"{lid}"')
        self.leaders[lid] = {
            "id": lid,
            "name": str(spec["name"]),
            "side": side,
            "post": post,
            "command": command,
            "rating": rating,
            "original_rating": rating,
            "permanent": True,
            "status": "waiting",
            "arrives": arrives,
            "hex": None,
            "promoted_from": None,
            "replaced": None,
            "original_post": post,
            "original_command": command,
        }
        return lid

    def unit(self, uid: str, **fields: Any) -> str:
        if uid in self.units:
            raise self.fail(f"duplicate unit id '{uid}'", uid.split("/")[0])
        self.units[uid] = {"id": uid, "status": "waiting", "hex": None, **fields}
        return uid

    def artillery(
        self, blocks: Any, side: str, corps: str, division: str | None, arrives: int | None
    ) -> list[str]:
        out: list[str] = []
        for block in self.tables(blocks, f"{division or corps}: artillery"):
            name = str(block.get("name", ""))
            if not name or not isinstance(block.get("batteries"), list):
                raise self.fail(f"{division or corps}: artillery needs name and batteries", name)
            at = self.time(block.get("arrives"), f"artillery {name}", arrives)
            if division is not None:
                parent = division
            elif corps in ("AR", "CC", "Cav") or side == "confederate":
                parent = f"{name}/{corps}"
            else:
                parent = corps
            for battery in block["batteries"]:
                if not isinstance(battery, str | int):
                    raise self.fail(f"artillery {name}: a battery is a name, not {battery!r:.40}")
                uid = f"{battery}/Arty/{parent}"
                out.append(
                    self.unit(
                        uid,
                        side=side,
                        kind="battery",
                        name=f"{battery}'s battery",
                        corps=corps,
                        division=division,
                        battalion=name,
                        arrives=at,
                        entry=None,
                        leader=None,
                    )
                )
        return out


def build_roster(data: Mapping[str, Any], file: str = "oob.toml", text: str = "") -> dict[str, Any]:
    """The roster (armies, corps, divisions, units, leaders) as JSON, checked."""
    b = _Builder(file, text)
    if not isinstance(data, Mapping):
        raise b.fail(f"the order of battle must be a table, not {type(data).__name__}")
    for army in b.tables(data.get("army"), "army"):
        side = army.get("side")
        if side not in SIDES_UNION_FIRST:
            raise b.fail(f"army side must be union or confederate, not {side!r}", "[[army]]")
        at = b.time(army.get("arrives"), f"{side} army", 0)
        lid = b.leader(army.get("commander"), side, "army", f"army:{side}", at)
        b.armies[side] = {
            "name": str(army.get("name", side)),
            "commander": lid,
            "original": lid,
            "seniority": [str(s) for s in army.get("seniority", [])],
        }
    for side in SIDES_UNION_FIRST:
        if side not in b.armies:
            raise b.fail(f"no [[army]] for side {side}")
    for corps in b.tables(data.get("corps"), "corps"):
        side, cid = corps.get("side"), str(corps.get("id", ""))
        if side not in SIDES_UNION_FIRST or not cid:
            raise b.fail(f"corps needs side and id (got {side!r}, {cid!r})", "[[corps]]")
        if cid in b.corps:
            raise b.fail(f"duplicate corps id '{cid}'", f'id = "{cid}"')
        at = b.time(corps.get("arrives"), f"corps {cid}", 0)
        kind = str(corps.get("kind", "infantry"))
        if kind not in ("infantry", "cavalry", "artillery"):
            raise b.fail(f"corps {cid}: kind must be infantry, cavalry or artillery", f'"{kind}"')
        entry = corps.get("entry")
        clid: str | None = None
        if corps.get("commander") is not None:
            clid = b.leader(corps["commander"], side, "corps", cid, at)
        units: list[str] = []
        if kind == "infantry":
            for what in ("HQ", "Supply"):
                units.append(
                    b.unit(
                        f"{what}/{cid}",
                        side=side,
                        kind=what.lower(),
                        name=f"{corps.get('name', cid)} {what}",
                        corps=cid,
                        division=None,
                        arrives=at,
                        entry=entry,
                        leader=None,
                    )
                )
        units += b.artillery(corps.get("artillery"), side, cid, None, at)
        b.corps[cid] = {
            "id": cid,
            "side": side,
            "name": str(corps.get("name", cid)),
            "kind": kind,
            "commander": clid,
            "original": clid,
            "successor": corps.get("successor"),
            "divisions": [],
            "units": units,
            "arrives": at,
            "entry": entry,
            "attack_orders": [],
            "stopped": False,
            "lost_commander": False,
        }
    for div in b.tables(data.get("division"), "division"):
        side, cid, code = div.get("side"), str(div.get("corps", "")), str(div.get("code", ""))
        if cid not in b.corps or b.corps[cid]["side"] != side:
            raise b.fail(f"division {code}: unknown {side} corps '{cid}'", f'corps = "{cid}"')
        corps = b.corps[cid]
        did = f"{code}/{cid}"
        if did in b.divisions:
            raise b.fail(f"duplicate division '{did}'", f'code = "{code}"')
        at = b.time(div.get("arrives"), f"division {did}", corps["arrives"])
        entry = div.get("entry", corps["entry"])
        lid = b.leader(div.get("commander"), side, "division", did, at)
        brigades: list[str] = []
        for brig in b.tables(div.get("brigades"), f"division {did}: brigades"):
            bcode = str(brig.get("code", ""))
            bid = f"{bcode}/{did}"
            bat = b.time(brig.get("arrives"), f"brigade {bid}", at)
            blid = b.leader(brig.get("commander"), side, "brigade", bid, bat)
            label = brig.get("name") or f"{b.leaders[blid]['name'].split()[-1]}'s Brigade"
            b.unit(
                bid,
                side=side,
                kind="brigade",
                name=str(label),
                corps=cid,
                division=did,
                arrives=bat,
                entry=entry,
                leader=blid,
            )
            brigades.append(bid)
        batteries = b.artillery(div.get("artillery"), side, cid, did, at)
        b.divisions[did] = {
            "id": did,
            "side": side,
            "corps": cid,
            "commander": lid,
            "original": lid,
            "brigades": brigades,
            "batteries": batteries,
            "infantry": corps["kind"] == "infantry",
            "wrecked": False,
            "arrives": at,
        }
        corps["divisions"].append(did)
    for cid, corps in b.corps.items():
        succ = corps["successor"]
        if succ is not None and b.leaders.get(succ, {}).get("post") != "division":
            raise b.fail(
                f"corps {cid}: successor '{succ}' is not a division commander",
                f'successor = "{succ}"',
            )
    for side, army in b.armies.items():
        for lid in army["seniority"]:
            if b.leaders.get(lid, {}).get("post") != "corps":
                raise b.fail(f"{side} seniority: '{lid}' is not a corps commander", f'"{lid}"')
    return {
        "armies": b.armies,
        "corps": b.corps,
        "divisions": b.divisions,
        "units": b.units,
        "leaders": b.leaders,
    }
