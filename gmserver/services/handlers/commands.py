"""A GM command: any mail from one of the GM's own addresses (gmserver.rules.mailkind).

No command is carried out by mail yet: the GM is told so, with the command line that does the
same where there is one. MATRIX 2.2 `gm_command_auth`: the GM's address is required under both
values; the game's GM secret of `gm_address_and_secret` is not checked, because nothing is
carried out (the issue that carries commands out must add that secret before it does).
"""

from __future__ import annotations

from types import MappingProxyType

from gmserver.services.handlers import notice
from gmserver.services.handlers.mail import Mail

TEMPLATE = "player/command.txt.j2"
OUTCOME = "command-held"

# command -> what does it today, with GAME for the game's name
INSTEAD = MappingProxyType({
    "process": "gmserver adjudicate GAME",
})


def handle(mail: Mail) -> str:
    command = mail.kind.topic
    game = mail.game
    instead = INSTEAD.get(command or "")
    if instead is not None:
        instead = instead.replace("GAME", game.name if game is not None else "NAME")
    notice.answer(mail, TEMPLATE, {"command": command, "argument": mail.kind.argument, "instead": instead,
                                   "commands": ("process", "delay", "correct", "cd", "proxy")})
    return OUTCOME
