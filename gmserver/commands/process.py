"""`process [GAME]`: adjudicate now. Not by mail yet: the GM is told the command line that does it."""

from __future__ import annotations

from gmserver.commands.command import Command

COMMAND = Command("process", ("process",), "adjudicate a game's current phase now", cli=("adjudicate",),
                  instead="gmserver adjudicate GAME")
