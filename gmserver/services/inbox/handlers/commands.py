"""A GM command: any mail from one of the GM's own addresses (gmserver.rules.mailkind).

Carried out by services/commands/gm_commands.py (one command per line, the commands of gmserver.commands), each line
answered with what was done or why not. `gm_command_auth`: the GM's address is
required under both values, and under `gm_address_and_secret` the game's GM secret too (a
'Password:' line): the From line alone no longer makes the server act.
"""

from __future__ import annotations

from gmserver.services.commands import gm_commands
from gmserver.services.inbox.handlers import notice
from gmserver.services.inbox.handlers.mail import Mail

TEMPLATE = "gm/command_results.txt.j2"
OUTCOME = "command-held"  # nothing was done
DONE = "command-done"  # at least one command was carried out
REFUSED = "command-refused"  # the message did not prove it came from the GM


def handle(mail: Mail) -> str:
    game = mail.game
    answer = gm_commands.carry_out(
        mail.session, mail.services, mail.order_text, gm_commands.message_body(mail.envelope.message),
        sender=mail.envelope.sender, subject_game=game.name if game is not None else None, now=mail.now,
        mail=gm_commands.CommandMail(mail.envelope.date, mail.row.received_at, mail.row.id))
    notice.answer(mail, TEMPLATE, {
        "results": answer.results, "ignored": answer.ignored, "refused": answer.refused,
        "commands": gm_commands.mail_words(),
    })
    if answer.done:
        return DONE
    return REFUSED if answer.refused else OUTCOME
