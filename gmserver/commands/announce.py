"""`gmserver game announce NAME --ruleset R ...`: a game open for sign-up by mail (players JOIN it
with their power preferences; it starts when seven have confirmed, or at `--starts`). On the
command line only: the game has no GM secret before it exists, so no mail could prove the GM."""

from __future__ import annotations

from gmserver.commands.command import Command

COMMAND = Command(
    "announce", ("announce",), "announce a game for open sign-up: players join by mail with their power "
    "preferences; it starts when seven have confirmed (or at --starts), powers assigned by their preferences",
    cli=("game", "announce"), instead="gmserver game announce GAME --ruleset RULESET",
    description="Announce a game for open sign-up. Players send 'join GAME England, France' (or 'join GAME any') "
                "to the GM address and reply to the answer to confirm; when seven have confirmed (or at --starts) "
                "the powers are assigned by their preferences (docs/players.md: the method) and the start mails "
                "go out. `gmserver game list --open` lists the open games.")
