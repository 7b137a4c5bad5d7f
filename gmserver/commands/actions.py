"""`actions [GAME]`: the GM actions recorded for a game (the newest ten), by mail as on the command
line (`gmserver game actions`). Changes nothing, tells nobody."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done

SHOWN = 10  # a short answer: the command line lists them all


def run(call: Call) -> Done:
    from gmserver.db import queries  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.game.actions import Done  # noqa: PLC0415

    rows = queries.gm_actions.actions_of(call.session, call.game.id)
    if not rows:
        return Done("actions", f"no GM actions recorded for {call.game.name}")
    shown = "; ".join(f"{row.at:%Y-%m-%d %H:%M} UTC by {row.by}, {row.action}: {row.result}" for row in rows[-SHOWN:])
    return Done("actions", f"{min(len(rows), SHOWN)} of the {len(rows)} GM actions recorded for {call.game.name}, "
                           f"the newest last: {shown}")


# the command line lists them all, or as JSON (gmserver/cli/controls.py)
COMMAND = Command("actions", ("actions",), "list the GM actions recorded for a game", (), run, ("game", "actions"))
