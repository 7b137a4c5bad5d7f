"""`rollback [GAME]`: the last adjudication undone, within the correction window (000 VIII(1))."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.features import corrections  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.game.actions import Done  # noqa: PLC0415

    done = corrections.rollback_in(call.session, call.services, call.game, call.now, deadline=None, replay=False,
                                   by=call.by)
    return Done("rollback", f"the adjudication of {done.phase} was rolled back ({done.undone} undone); it waits "
                            f"to be adjudicated again (gmserver adjudicate {done.game})", done.notices)


# the command line has --deadline, --reported-at, --replay (gmserver/cli/game.py)
COMMAND = Command("rollback", ("rollback",), "undo the last adjudication, within the correction window", (), run,
                  ("game", "rollback"), usage_note="(it waits for `process` or `gmserver adjudicate` afterwards)",
                  description="Undo the last adjudication (000 VIII(1)): its phase becomes current again with its "
                              "orders on file and every player gets a correction notice.")
