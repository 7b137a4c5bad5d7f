"""`set [GAME] SETTING on|off`: a game setting the GM may change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.set_setting(call.session, call.services, call.game, call.values["setting"],
                                   call.values["value"], by=call.by, now=call.now)


# by mail the setting's own check says what it accepts (on, off, yes, no, true, false)
COMMAND = Command(
    "set", ("set",), "change a game setting: gm_copies on|off",
    (Arg("setting", "word", "the setting to change", "SETTING", choices=("gm_copies",), mail_checks_choices=False),
     Arg("value", "choice", "its new value", choices=("on", "off"), mail_checks_choices=False)),
    run, ("game", "set"), cli_from_spec=True,
    description="gm_copies: a copy of every report and every refusal goes to the GM ([gm] alert_address, else "
                "[gm] address).")
