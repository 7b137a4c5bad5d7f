"""`audit [GAME]`: 000 VIII(2), VIII(3), the last game year's stored orders replayed; the differences
and the repairs proposed, in the reply (no separate notice)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.features import audit as audits  # noqa: PLC0415  (imported when it runs)
    from gmserver.services.game.actions import Done  # noqa: PLC0415

    done = audits.audit_in(call.session, call.services, call.game, call.now, notify=False)
    replayed = ", ".join(done.replayed) or "no phase"
    if not done.differences:
        return Done("audit", f"replayed {replayed} with their stored orders: every stored board is what they give")
    repairs_text = "".join(f" Proposed (000 VIII): {p.mail()}." for p in done.proposals)
    return Done("audit", f"replayed {replayed} with their stored orders: " + " ".join(
        f"{text}." for text in done.differences) + repairs_text)


# the command line has --years and --no-mail (gmserver/cli/game.py)
COMMAND = Command(
    "audit", ("audit",), "replay the last game year's stored orders and compare the boards (house rules 000 "
    "VIII(2), VIII(3))", (), run, ("game", "audit"),
    description="Adjudicate each stored phase of the last game year again with its stored orders and compare the "
                "result with the board the game stored next: a unit the orders do not give is a surplus unit (000 "
                "VIII(2)). Prints the differences and the `game repair` commands 000 VIII proposes, and mails them "
                "to the GM. Changes nothing. Exit status 1 when something differs.")
