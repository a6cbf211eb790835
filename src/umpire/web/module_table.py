"""A game module at the web table through the ``AtTable`` seam (seed 000's assistant today).

An action that asks a player a question cannot wait inside a web request, so it runs until
the question, and stops: nothing is logged, and the dice source is put back (an action is
all or nothing). The question goes to the side it is for; when that side answers, the
action runs again from the start with the answers given so far: the same dice come (the
source is counter-based), the same questions, and this time an answer for each, until it
finishes or asks the next one. The rolls made before a question are shown with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from umpire.engine.context import watching
from umpire.engine.decisions import Decision, PickFn
from umpire.engine.events import Event
from umpire.engine.game import ActionRecord, Game
from umpire.errors import IllegalActionError
from umpire.rules import AtTable
from umpire.web.log import event_lines


class NeedAnswer(Exception):
    """The action asked a question that has no answer yet."""

    def __init__(self, decision: Decision):
        super().__init__(decision.prompt)
        self.decision = decision


class _Answers:
    """Answers the questions of a re-run action in order; the next one stops the action."""

    kind = "human"

    def __init__(self, answers: Sequence[dict[str, Any]]):
        self.queue = [dict(a) for a in answers]

    def choose(self, decision: Decision, pick: PickFn) -> list[str]:
        if not self.queue:
            raise NeedAnswer(decision)
        entry = self.queue.pop(0)
        if entry["decider"] != decision.decider:
            raise IllegalActionError("the answers no longer fit the questions: ask again")
        return [str(a) for a in entry["answer"]]


def run(
    game: Game,
    module: AtTable,
    action: str,
    params: dict[str, Any],
    answers: list[dict[str, Any]],
    entropy: str | None = None,
    by: str | None = None,
) -> tuple[ActionRecord | None, dict[str, Any] | None]:
    """Run ``action`` with the answers so far: (its record, None) when it finishes, or
    (None, the question) when it asks one more."""
    shown: list[Event] = []
    policy = _Answers(answers)
    try:
        with watching(shown.extend):
            record = game.act(
                action, params, {side: policy for side in module.sides}, entropy, by=by
            )
    except NeedAnswer as need:
        d = need.decision
        return None, {
            "decider": d.decider,
            "prompt": d.prompt,
            "options": [[o.id, str(o)] for o in d.options],
            "pick": d.pick,
            "allow_fewer": d.allow_fewer,
            "shown": [e.to_json() for e in shown if e.kind != "decision"],
            "public": [e.to_json() for e in _before_first_decision(shown)],
        }
    return record, None


def _before_first_decision(events: list[Event]) -> list[Event]:
    """What everyone may see of a pending action: the rolls before anyone was asked."""
    out = []
    for e in events:
        if e.kind == "decision":
            break
        out.append(e)
    return out


def view(
    game: Game, module: AtTable, side: str | None, pending: dict[str, Any] | None
) -> dict[str, Any]:
    """The seat's view: the module's sections, its commands, and a question for it."""
    out: dict[str, Any] = {"kind": "module", "module": module.id, "name": module.name}
    out.update(module.table_view(game.state, side))
    out["commands"] = [] if pending else module.table_commands(game.state, side)
    out["question"] = None
    out["waiting_for"] = None
    if pending is not None and pending.get("ask"):
        ask = pending["ask"]
        out["waiting_for"] = ask["decider"]
        mine = side == ask["decider"]
        out["shown"] = event_lines(ask.get("shown" if mine else "public", []), decisions=False)
        if mine:
            out["question"] = {
                "prompt": ask["prompt"],
                "options": ask["options"],
                "pick": ask["pick"],
                "allow_fewer": ask["allow_fewer"],
            }
    return out
