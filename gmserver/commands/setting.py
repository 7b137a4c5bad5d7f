"""`set [GAME] gm_copies on|off`, `set [GAME] sender-check verified|from`, `set [GAME] pages
public|private`: a game setting the GM may change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gmserver.commands.command import Arg, Call, Command

if TYPE_CHECKING:
    from gmserver.services.game.actions import Done


def run(call: Call) -> Done:
    from gmserver.services.commands import gm_controls  # noqa: PLC0415  (imported when it runs)

    return gm_controls.set_setting(call.session, call.services, call.game, call.values["setting"],
                                   call.values["value"], by=call.by, now=call.now)


# by mail the setting's own check says what it accepts (on, off, yes, no, true, false; sender_check)
COMMAND = Command(
    "set", ("set",), "change a game setting: gm_copies on|off, sender-check verified|from, pages public|private",
    (Arg("setting", "word", "the setting to change", "SETTING", choices=("gm_copies", "sender-check", "pages"),
         mail_checks_choices=False),
     Arg("value", "choice", "its new value: on|off for gm_copies, verified|from for sender-check, "
         "public|private for pages", choices=("on", "off", "verified", "from", "public", "private"),
         mail_checks_choices=False)),
    run, ("game", "set"), cli_from_spec=True,
    usage_text="set [GAME] gm_copies on|off, set [GAME] sender-check verified|from, or set [GAME] pages "
               "public|private",
    description="gm_copies: a copy of every report and every refusal goes to the GM ([gm] alert_address, else "
                "[gm] address). sender-check: verified (a player's mail is used only with proof that they sent it; "
                "the players are told) or from (the From line alone, which anyone can forge). pages: public (anybody may "
                "look at the game's web pages) or private (nothing without a player's own link or the GM's "
                "password); a game created without --public or --private follows [web] public.")
